mkdir -p empty nested/empty/deeper
