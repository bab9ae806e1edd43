"""What bounds a watch on a real API server, for the test server.

- Its length: timeoutSeconds when given (no cap), else a random time between the server's
  --min-request-timeout (1800 s) and twice that, as the apiserver's watch handler picks.
- Bookmarks (allowWatchBookmarks=true): the watch cache sends one about every minute and one 2 s
  before the watch's deadline, carrying the current resourceVersion (cacheWatcher.nextBookmarkTime);
  a watch shorter than 2 s gets none. The interval is the test's knob (config "bookmark_every").
- History: etcd compacts revisions older than the last compaction every --etcd-compaction-interval
  (5 minutes; config "compact_every"), after which a watch or list from an older resourceVersion
  answers 410 Gone "too old resource version: OLD (OLDEST)". Compaction here drops the history
  entries too, so a long run does not keep every change.
"""

import random
import time

MIN_REQUEST_TIMEOUT = 1800
PRE_TIMEOUT = 2.0


def timeout_of(query):
    if query.get("timeoutSeconds"):
        return float(query["timeoutSeconds"])
    return random.uniform(MIN_REQUEST_TIMEOUT, 2 * MIN_REQUEST_TIMEOUT)


def next_bookmark(now, deadline, every):
    """When the next bookmark is due (monotonic seconds), or None when none will be sent."""
    due = min(now + every, deadline - PRE_TIMEOUT)
    return due if due > now else None


def too_old(since, oldest):
    return f"too old resource version: {since} ({oldest})"


def compact(store, below):
    """etcd's compaction: revisions below `below` are gone for watches, lists and history."""
    store.compacted_below = max(store.compacted_below, below)
    for plural, rvs in store.history_rvs.items():
        keep = next((n for n, rv in enumerate(rvs) if rv >= store.compacted_below), len(rvs))
        del rvs[:keep]
        del store.history[plural][:keep]


def keep_compacting(store):
    """The apiserver's compactor: every interval, compacts to the revision current at the previous
    round (so every change stays watchable for one interval at least)."""
    every = float(store.config.get("compact_every") or 300)
    previous = store.rv

    def round_():
        nonlocal previous
        compact(store, previous)
        previous = store.rv
        store.schedule(time.monotonic() + float(store.config.get("compact_every") or 300), round_)

    store.schedule(time.monotonic() + every, round_)
