# Import by identity (Terraform 1.12 or later, OpenTofu 1.12 or later).
import {
  to = flipbook_template_collection.brochure
  identity = {
    collection_hash = "0123456789abcdef"
  }
}

# The service cannot report the sections a collection was generated from:
# the first apply adopts these without generating a new collection.
resource "flipbook_template_collection" "brochure" {
  title    = "Spring brochure"
  sections = [{ type = "static", templates = [{ template_hash = "tpl-cover" }] }]
}
