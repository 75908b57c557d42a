# Reads any collection of the account, including ones not managed here.
data "flipbook_collection" "handbook" {
  collection_hash = "pub-private-1"
}

output "handbook_status" {
  value = data.flipbook_collection.handbook.status
}

output "handbook_link" {
  value = data.flipbook_collection.handbook.direct_link
}

output "handbook_items" {
  value = [for item in data.flipbook_collection.handbook.items : "${item.title} (${item.page_count} pages)"]
}
