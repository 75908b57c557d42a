# Embed codes in a site: a catalog, and an existing handbook, each passed
# through the flipbook-embed module, whose outputs feed whatever publishes
# the site. terraform_data stands in for that resource (a CMS entry, a file
# in a static site's bucket): replace it with your own.

resource "flipbook_catalog" "shoes" {
  title = "Shoes 2026"
  sections = [{
    sources       = ["feed-shoes"]
    template_hash = "tpl-product"
    group_by      = [{ field = "brand", page_break = true }]
  }]
}

# Opens on page 2, past the cover, and fills the width of the page.
module "catalog_embed" {
  source = "./modules/flipbook-embed"

  collection_hash = flipbook_catalog.shoes.id
  start_page      = 2
  aspect_ratio    = "16 / 9"
}

# A collection made elsewhere, embedded by its hash.
module "handbook_embed" {
  source = "./modules/flipbook-embed"

  collection_hash = "pub-private-1"
}

# A fixed-size embed straight from the data source, for a sidebar.
data "flipbook_embed" "sidebar" {
  collection_hash = flipbook_catalog.shoes.id
  width           = 320
  height          = 240
}

resource "terraform_data" "catalog_page" {
  input = {
    path = "/catalogs/shoes"
    body = module.catalog_embed.html
    # Changing the catalog changes its hash, hence this page.
    canonical_link = module.catalog_embed.direct_link
  }
}

output "catalog_embed_code" {
  value = module.catalog_embed.embed_code
}

output "catalog_direct_link" {
  value = module.catalog_embed.direct_link
}

output "catalog_page_html" {
  value = terraform_data.catalog_page.output.body
}

output "handbook_direct_link" {
  value = module.handbook_embed.direct_link
}

output "sidebar_embed_code" {
  value = data.flipbook_embed.sidebar.embed_code
}
