# Import by identity (Terraform 1.12 or later, OpenTofu 1.12 or later).
import {
  to = flipbook_document.manual
  identity = {
    collection_hash = "pub-private-1"
    flipbook_hash   = "fedcba9876543210"
  }
}

# The service does not report the file a document came from: the first apply
# adopts this one without uploading it again.
resource "flipbook_document" "manual" {
  collection_hash = "pub-private-1"
  file            = "${path.module}/manual.pdf"
}
