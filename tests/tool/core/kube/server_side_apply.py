"""Server-side apply as the API server does it (structured-merge-diff), for the test server.

An object's fields are a tree whose shape comes from the kind's schema: struct fields and map
entries are named (`f:image`), items of a list of type "map" by their key fields
(`k:{"name":"main"}`, containers by name, ports by containerPort and protocol), items of a "set"
list by their value (`v:"a"`); an "atomic" list or map is one field. Where the schema says nothing
of a list, its patch strategy decides as in kube-openapi's schemaconv: "merge" with a merge key is
a map keyed by it, anything else atomic.

Each field manager owns a set of field paths (its managedFields entry). Applying a configuration:
- the fields it names take its values; list-map items are merged by key, set lists by value;
- a field it names that another manager owns with a different value is a conflict (409, naming
  the manager and the path as `.spec.template.spec.containers[name="main"].image`) unless forced,
  which takes the field from that manager;
- the fields it owned before and no longer names are removed, unless another manager owns them.

Schemas: the exact release's definitions that kubernetes-validate ships (the ones api_contract.py
checks bodies against) and Kueue's CRD schemas. Not modelled: the order SMD gives merged list
items (here: live items keep their place, new ones are appended), versions other than the served
one, and `x-kubernetes-map-type: granular` on custom resources beyond plain objects.
"""

import copy
import json
import os

MISSING = object()
# Fields the API server strips from every managedFields set (fieldmanager's "ignored fields").
IGNORED = {("f:apiVersion",), ("f:kind",), ("f:metadata", "f:name"), ("f:metadata", "f:namespace"),
           ("f:metadata", "f:creationTimestamp"), ("f:metadata", "f:uid"), ("f:metadata", "f:generation"),
           ("f:metadata", "f:resourceVersion"), ("f:metadata", "f:managedFields"),
           ("f:metadata", "f:selfLink"), ("f:metadata", "f:deletionTimestamp")}
# Kinds whose status is a subresource: a write to the main resource leaves status as it was.
STATUS_SUBRESOURCE = {"Job", "Pod", "Deployment", "DaemonSet", "Node", "Namespace", "Service",
                      "PersistentVolume", "PersistentVolumeClaim", "Workload", "ClusterQueue", "LocalQueue"}
# Key fields the API server defaults before it merges (a port's protocol is TCP unless said).
KEY_DEFAULTS = {"protocol": "TCP"}
HERE = os.path.dirname(os.path.abspath(__file__))


class ApplyConflict(Exception):
    """409 Conflict: `conflicts` is [(manager label, path text)]."""

    def __init__(self, conflicts):
        self.conflicts = conflicts
        super().__init__(conflict_message(conflicts))


def conflict_message(conflicts):
    """The API server's text (fieldmanager/internal/conflict.go)."""
    if len(conflicts) == 1:
        return f"Apply failed with 1 conflict: conflict with {conflicts[0][0]}: {conflicts[0][1]}"
    lines = []
    for manager in sorted({m for m, _ in conflicts}):
        lines.append(f"conflicts with {manager}:")
        lines.extend(f"- {path}" for m, path in conflicts if m == manager)
    return f"Apply failed with {len(conflicts)} conflicts: " + "\n".join(lines)


class Schemas:
    """Navigates the kind's schema: what a field's value is (struct, map, list type and keys)."""

    def __init__(self, definitions):
        self.defs = definitions  # name -> JSON schema, "$ref": "#/$defs/<name>"
        self.custom = {}

    def root(self, obj):
        group, _, version = obj.get("apiVersion", "").rpartition("/")
        kind = obj.get("kind", "")
        if os.path.isdir(os.path.join(HERE, "kueue-schemas", group or "-")):  # a custom resource: its CRD's schema
            file = os.path.join(HERE, "kueue-schemas", group, f"{kind.lower()}_{version}.json")
            if file not in self.custom:
                self.custom[file] = json.load(open(file)) if os.path.exists(file) else {}
            return self.custom[file]
        # Built-in groups are named by their first label (rbac.authorization.k8s.io: io.k8s.api.rbac).
        prefix = "io.k8s.api.core." if not group else f"io.k8s.api.{group.split('.')[0]}."
        return self.defs.get(f"{prefix}{version}.{kind}", {})

    def resolve(self, schema):
        while schema:
            if "$ref" in schema:
                merged = dict(self.defs.get(schema["$ref"].rsplit("/", 1)[-1], {}))
                merged.update({k: v for k, v in schema.items() if k != "$ref"})
                schema = merged
            elif "allOf" in schema and len(schema["allOf"]) == 1:
                merged = dict(schema["allOf"][0])
                merged.update({k: v for k, v in schema.items() if k != "allOf"})
                schema = merged
            else:
                break
        return schema or {}

    def field(self, schema, name):
        schema = self.resolve(schema)
        if name in (schema.get("properties") or {}):
            return schema["properties"][name]
        extra = schema.get("additionalProperties")
        return extra if isinstance(extra, dict) else {}

    def item(self, schema):
        return self.resolve(schema).get("items") or {}

    def list_kind(self, schema):
        """("map", keys) | ("set", None) | ("atomic", None)."""
        schema = self.resolve(schema)
        kind = schema.get("x-kubernetes-list-type")
        if kind == "map":
            return "map", schema.get("x-kubernetes-list-map-keys") or []
        if kind in ("set", "atomic"):
            return kind, None
        if "merge" in (schema.get("x-kubernetes-patch-strategy") or "") and schema.get("x-kubernetes-patch-merge-key"):
            return "map", [schema["x-kubernetes-patch-merge-key"]]
        return "atomic", None

    def atomic_map(self, schema):
        return self.resolve(schema).get("x-kubernetes-map-type") == "atomic"


def item_key(item, keys):
    """`k:{"containerPort":80,"protocol":"TCP"}`: the key fields, sorted, as compact JSON."""
    values = {k: item.get(k, KEY_DEFAULTS.get(k)) for k in keys if k in item or k in KEY_DEFAULTS}
    return "k:" + json.dumps(values, sort_keys=True, separators=(",", ":"))


def value_key(value):
    return "v:" + json.dumps(value, sort_keys=True, separators=(",", ":"))


def element_key(item, schema, schemas):
    kind, keys = schemas.list_kind(schema)
    return item_key(item, keys) if kind == "map" else value_key(item)


def field_set(obj, schemas):
    """The set of field paths `obj` sets (tuples of f:/k:/v: elements; "." ends a list-map item's
    own path, a set's v: element is a leaf), status aside: it belongs to the status subresource's managers."""
    out = set()
    walk_fields(obj, schemas.root(obj), (), out, schemas)
    return {p for p in out if not any(p[:n] in IGNORED for n in range(1, len(p) + 1)) and p[:1] != ("f:status",)}


def walk_fields(value, schema, prefix, out, schemas):
    resolved = schemas.resolve(schema)
    if isinstance(value, dict) and value and not schemas.atomic_map(resolved):
        for key, item in value.items():
            walk_fields(item, schemas.field(resolved, key), prefix + ("f:" + key,), out, schemas)
        return
    if isinstance(value, list) and value and schemas.list_kind(resolved)[0] != "atomic":
        kind, _ = schemas.list_kind(resolved)
        item_schema = schemas.item(resolved)
        for item in value:
            key = element_key(item, resolved, schemas)
            if kind == "set":  # a set's value is a leaf of its own
                out.add(prefix + (key,))
                continue
            out.add(prefix + (key, "."))
            if isinstance(item, dict):
                walk_fields(item, item_schema, prefix + (key,), out, schemas)
        return
    out.add(prefix)


def find(obj, path, schemas, schema):
    """The value at `path` (MISSING if absent) and its schema."""
    for element in path:
        if element == ".":
            break
        if element.startswith("f:"):
            if not isinstance(obj, dict) or element[2:] not in obj:
                return MISSING, {}
            obj, schema = obj[element[2:]], schemas.field(schema, element[2:])
        else:
            if not isinstance(obj, list):
                return MISSING, {}
            match = [i for i in obj if element_key(i, schema, schemas) == element]
            if not match:
                return MISSING, {}
            obj, schema = match[0], schemas.item(schema)
    return obj, schema


def merge(live, applied, schema, schemas):
    """`applied` laid over `live`: structs and maps by field, list maps by key, sets by value."""
    resolved = schemas.resolve(schema)
    if isinstance(live, dict) and isinstance(applied, dict) and not schemas.atomic_map(resolved):
        result = dict(live)
        for key, value in applied.items():
            sub = schemas.field(resolved, key)
            result[key] = merge(live[key], value, sub, schemas) if key in live else copy.deepcopy(value)
        return result
    if isinstance(live, list) and isinstance(applied, list) and schemas.list_kind(resolved)[0] != "atomic":
        kind, _ = schemas.list_kind(resolved)
        item_schema = schemas.item(resolved)
        result = list(live)
        index = {element_key(item, resolved, schemas): n for n, item in enumerate(result)}
        for item in applied:
            key = element_key(item, resolved, schemas)
            if key in index:
                if kind == "map":
                    result[index[key]] = merge(result[index[key]], item, item_schema, schemas)
            else:
                index[key] = len(result)
                result.append(copy.deepcopy(item))
        return result
    return copy.deepcopy(applied)


def remove(obj, path, schemas, schema):
    """Removes the field at `path` (a whole list item for a path ending in ".")."""
    parent_path, last = (path[:-2], path[-2]) if path[-1] == "." else (path[:-1], path[-1])
    parent, parent_schema = find(obj, parent_path, schemas, schema)
    if isinstance(parent, dict) and last.startswith("f:"):
        parent.pop(last[2:], None)
    elif isinstance(parent, list):
        parent[:] = [i for i in parent if element_key(i, parent_schema, schemas) != last]


def prune_empty(value):
    """Maps and lists that removals left empty go too, as the server drops emptied parents."""
    if isinstance(value, dict):
        for key in list(value):
            if isinstance(value[key], (dict, list)):
                prune_empty(value[key])
                if not value[key]:
                    del value[key]
    return value


def path_text(path):
    """fieldpath.Path.String(): .spec.containers[name="main"].image"""
    text = ""
    for element in path:
        if element == ".":
            continue
        if element.startswith("f:"):
            text += "." + element[2:]
        elif element.startswith("k:"):
            keys = json.loads(element[2:])
            text += "[" + ",".join(f"{k}={json.dumps(v)}" for k, v in sorted(keys.items())) + "]"
        else:
            text += "[=" + element[2:] + "]"
    return text


def fields_v1(paths):
    tree = {}
    for path in sorted(paths):
        node = tree
        for element in path:
            node = node.setdefault(element, {})
    return tree


class Managers:
    """Who owns which fields of one object: {(manager, operation): (apiVersion, field set, time)}."""

    def __init__(self, entries=None):
        self.entries = dict(entries or {})

    @staticmethod
    def label(manager, operation, api_version):
        """How a conflict names a manager (printManager): "kubectl", or "x" using batch/v1 for an Update."""
        return f'"{manager}"' if operation == "Apply" else f'"{manager}" using {api_version}'

    def managed_fields(self):
        return [{"manager": manager, "operation": operation, "apiVersion": api_version, "time": stamp,
                 "fieldsType": "FieldsV1", "fieldsV1": fields_v1(paths)}
                for (manager, operation), (api_version, paths, stamp) in self.entries.items() if paths]


def apply(live, applied, managers, manager, force, api_version, stamp, schemas):
    """Returns the object after `manager` applied `applied` over `live` (None: a new object), and
    updates `managers`. Raises ApplyConflict."""
    new_fields = field_set(applied, schemas)
    schema = schemas.root(applied)
    if live is None:
        managers.entries[(manager, "Apply")] = (api_version, new_fields, stamp)
        return prune_empty(copy.deepcopy(applied))
    body = {k: v for k, v in applied.items() if k != "status" or applied.get("kind") not in STATUS_SUBRESOURCE}
    merged = merge(live, body, schema, schemas)
    conflicts = []
    for key, (other_version, paths, _) in managers.entries.items():
        if key == (manager, "Apply"):
            continue
        for path in sorted(new_fields & paths):
            if path[-1] != "." and find(live, path, schemas, schema)[0] != find(merged, path, schemas, schema)[0]:
                conflicts.append((key, path))  # a list item's own "." path changes only by removal
    if conflicts and not force:
        raise ApplyConflict([(Managers.label(m, op, managers.entries[(m, op)][0]), path_text(p))
                             for (m, op), p in conflicts])
    for key, path in conflicts:  # forced: the field changes hands
        version, paths, when = managers.entries[key]
        managers.entries[key] = (version, paths - {path}, when)
    previous = managers.entries.get((manager, "Apply"), (api_version, set(), stamp))[1]
    others = set().union(*(p for k, (_, p, _) in managers.entries.items() if k != (manager, "Apply")))
    # Whole list items first (found by their key fields), then the fields left.
    for path in sorted(previous - new_fields - others, key=lambda p: (p[-1] != ".", len(p))):
        remove(merged, path, schemas, schema)
    managers.entries[(manager, "Apply")] = (api_version, new_fields, stamp)
    managers.entries = {k: v for k, v in managers.entries.items() if v[1]}
    return prune_empty(merged)


def record_create(obj, manager, api_version, stamp, schemas):
    """A create (POST) by `manager`: it owns every field it set, as an Update operation."""
    return Managers({(manager, "Update"): (api_version, field_set(obj, schemas), stamp)})
