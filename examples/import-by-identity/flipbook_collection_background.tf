# Import by identity (Terraform 1.12 or later, OpenTofu 1.12 or later).
import {
  to = flipbook_collection_background.handbook
  identity = {
    collection_hash = "pub-private-1"
  }
}

resource "flipbook_collection_background" "handbook" {
  collection_hash = "pub-private-1"
}
