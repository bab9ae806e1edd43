"""Secrets as the API server and the kubelet treat them, for the test server (a stand-in).

What the real server does (pkg/apis/core/validation ValidateSecret, the core/v1 Secret type and
the garbage collector), modelled here:
- data values are base64 (a JSON []byte): anything else is 400 BadRequest, as decoding fails;
- stringData is write-only: merged into data (winning over data's key of the same name) and
  never stored or returned;
- every key of data is a config key: [-._a-zA-Z0-9]+, at most 253 characters, or 422 Invalid
  ("a valid config key must consist of alphanumeric characters, '-', '_' or '.'");
- the decoded data together are at most 1 MiB (1048576 bytes), or 422 Invalid ("Too long");
- type defaults to Opaque and never changes (422 "field is immutable");
- the garbage collector deletes a dependent once none of its ownerReferences' owners exists
  (checked by uid) — here whenever a Job is deleted, by a client or its TTL;
- the kubelet resolves a container's env valueFrom.secretKeyRef from the stored Secret (for the
  "auto" log lines' $(VAR)); a missing Secret or key leaves the variable unresolved here, where
  the real kubelet holds the container in CreateContainerConfigError.
"""

import base64
import binascii
import re

CONFIG_KEY = re.compile(r"^[-._a-zA-Z0-9]+$")
MOST_BYTES = 1048576


class BadRequest(Exception):
    pass


def prepare(obj, current):
    """Checks and normalises a Secret about to be stored; raises BadRequest, or returns the
    causes of a 422 Invalid (empty when valid)."""
    data = obj.get("data") or {}
    decoded = {}
    for key, value in data.items():
        try:
            decoded[key] = base64.b64decode(value if isinstance(value, str) else "", validate=True)
        except (binascii.Error, ValueError) as error:
            raise BadRequest(f"Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data "
                             f"in data[{key}]: {error}")
    for key, value in (obj.pop("stringData", None) or {}).items():
        decoded[key] = str(value).encode()
        data[key] = base64.b64encode(decoded[key]).decode()
    if data:
        obj["data"] = data
    obj.setdefault("type", "Opaque")
    causes = []
    for key in data:
        if not CONFIG_KEY.match(key) or len(key) > 253:
            causes.append({"reason": "FieldValueInvalid", "field": f"data[{key}]",
                           "message": f'Invalid value: "{key}": a valid config key must consist of alphanumeric '
                                      "characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or "
                                      "'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"})
    total = sum(len(v) for v in decoded.values())
    if total > MOST_BYTES:
        causes.append({"reason": "FieldValueTooLong", "field": "data",
                       "message": f"Too long: may not be more than {MOST_BYTES} bytes"})
    if current is not None and current.get("type", "Opaque") != obj["type"]:
        causes.append({"reason": "FieldValueInvalid", "field": "type",
                       "message": f'Invalid value: "{obj["type"]}": field is immutable'})
    return causes


def collect_garbage(store, ns):
    """Deletes the Secrets of `ns` whose owners are all gone (as the garbage collector would)."""
    alive = {obj["metadata"].get("uid") for (_, _), obj in store.items_of("jobs")}
    for (secret_ns, name), obj in list(store.items_of("secrets")):
        owners = obj["metadata"].get("ownerReferences") or []
        if secret_ns == ns and owners and not any(o.get("uid") in alive for o in owners):
            store.delete("secrets", ns, name)


def resolve(store, ns, var):
    """The value of an env var's secretKeyRef, or None when the Secret or key is missing."""
    ref = (var.get("valueFrom") or {}).get("secretKeyRef")
    if not ref:
        return None
    secret = store.objects.get(("secrets", ns, ref.get("name", "")))
    value = ((secret or {}).get("data") or {}).get(ref.get("key", ""))
    return None if value is None else base64.b64decode(value).decode(errors="replace")
