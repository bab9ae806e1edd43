#!/bin/sh
# A stand-in for gcloud in the `cluster up|down` tests: records each call in
# $FAKE_GCLOUD_DIR/calls and answers describe and list from cluster.json and pools.json
# there (no cluster.json: describe answers as GKE does for a missing cluster), and the
# quota questions from regions.json and project-info.json, and the GPU zones from
# accelerator-types.json.
echo "$*" >> "$FAKE_GCLOUD_DIR/calls"
case "$*" in
  "container clusters describe"*)
    if [ -f "$FAKE_GCLOUD_DIR/cluster.json" ]; then cat "$FAKE_GCLOUD_DIR/cluster.json"; exit 0; fi
    echo "ERROR: (gcloud.container.clusters.describe) ResponseError: code=404, message=Not found: projects/my-project/locations/us-central1/clusters/demo." >&2
    exit 1 ;;
  "container node-pools list"*) cat "$FAKE_GCLOUD_DIR/pools.json" ;;
  "compute regions describe"*|"compute project-info describe"*)
    file="$FAKE_GCLOUD_DIR/$2.json"   # regions.json, project-info.json
    if [ -f "$file" ]; then cat "$file"; else echo '{"quotas": []}'; fi ;;
  "compute accelerator-types list"*)
    # Without a fixture, as for an account that may not list them.
    if [ -f "$FAKE_GCLOUD_DIR/accelerator-types.json" ]; then cat "$FAKE_GCLOUD_DIR/accelerator-types.json"; exit 0; fi
    echo "ERROR: (gcloud.compute.accelerator-types.list) Required 'compute.acceleratorTypes.list' permission" >&2
    exit 1 ;;
  *"fail-me"*) echo "ERROR: (gcloud.container.node-pools.create) Quota 'NVIDIA_L4_GPUS' exceeded." >&2; exit 1 ;;
esac
exit 0
