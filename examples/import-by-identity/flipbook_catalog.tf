# Import by identity (Terraform 1.12 or later, OpenTofu 1.12 or later).
import {
  to = flipbook_catalog.shoes
  identity = {
    collection_hash = "0123456789abcdef"
  }
}

# The service cannot report the sections a catalog was generated from: the
# first apply adopts these without generating a new catalog.
resource "flipbook_catalog" "shoes" {
  title    = "Shoes 2026"
  sections = [{ sources = ["feed-shoes"], template_hash = "tpl-product" }]
}
