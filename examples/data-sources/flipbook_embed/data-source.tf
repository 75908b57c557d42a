# Markup that shows the collection in a web page, opening on page 3 and filling
# its container.
data "flipbook_embed" "handbook" {
  collection_hash = "pub-private-1"
  responsive      = true
  start_page      = 3
}

output "embed_code" {
  value = data.flipbook_embed.handbook.embed_code
}
