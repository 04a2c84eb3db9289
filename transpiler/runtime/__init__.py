"""Runtime side of bbx: specialization keys, the on-disk build cache, builds, lazy loading."""
