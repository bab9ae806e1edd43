#include "tool/steps/validate/project_file_check.h"

#include "base/source_error.h"
#include "tool/core/project/project.h"

namespace gkebuild::validate {

std::vector<Finding> check_project_file(const std::string& text, const std::string& file,
                                        const ProjectCheck& more) {
  try {
    const project::Project project = project::parse_project(text, file);
    if (more) more(project);
  } catch (const SourceError& error) {
    return {Finding{file, error.where().line, error.where().column, Severity::kError, "project-file", error.message()}};
  } catch (const Error& error) {
    return {Finding{file, 0, 0, Severity::kError, "project-file", error.what()}};
  }
  return {};
}

}  // namespace gkebuild::validate
