# A catalog declared in HCL: the products of the "feed-shoes" feed that are
# running or trail shoes, cheapest first, each brand on a page of its own.
#
# The service cannot update or delete a generated collection: any change to
# the title, folder or sections creates a new catalog, and the old one stays
# in the account. Iterate against the emulator (make preview) and apply to
# the service once the pages look right.

variable "feed_version" {
  description = "Version of the product feed's export (a date, a build number, a hash of the file). Changing it regenerates the catalog."
  type        = string
  default     = "2026-11-01"
}

# Holds the feed version, so that a new export can replace the catalog even
# though nothing in its sections changed.
resource "terraform_data" "feed_version" {
  input = var.feed_version
}

resource "flipbook_catalog" "shoes" {
  title  = "Running and trail shoes"
  folder = "Catalogs/Shoes"

  sections = [{
    sources       = ["feed-shoes"]
    template_hash = "tpl-product"

    filters = [{
      mode = "include"
      conditions = [
        { field = "category", operator = "in", values = ["running", "trail"] },
      ]
    }]
    sort_by  = [{ field = "price", order = "asc" }]
    group_by = [{ field = "brand", page_break = true }]
  }]

  lifecycle {
    # A new feed version generates a new catalog from the current feed.
    replace_triggered_by = [terraform_data.feed_version]
  }
}

output "catalog_hash" {
  value = flipbook_catalog.shoes.id
}

output "direct_link" {
  description = "The player page; on the emulator it draws every page of the catalog."
  value       = flipbook_catalog.shoes.direct_link
}

output "page_count" {
  value = flipbook_catalog.shoes.page_count
}
