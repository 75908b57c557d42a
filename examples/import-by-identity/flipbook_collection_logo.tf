# Import by identity (Terraform 1.12 or later, OpenTofu 1.12 or later).
import {
  to = flipbook_collection_logo.handbook
  identity = {
    collection_hash = "pub-private-1"
  }
}

# The service does not report the file a logo came from: the first apply
# adopts this one without uploading it again.
resource "flipbook_collection_logo" "handbook" {
  collection_hash = "pub-private-1"
  file            = "${path.module}/logo.png"
}
