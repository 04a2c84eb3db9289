"""AMD code objects: resource metadata, occupancy and instruction mix (`bbx inspect`)."""
