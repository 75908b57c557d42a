data "flipbook_collection" "handbook" {
  collection_hash = "pub-private-1"
}

# Statistics of one item of the collection.
data "flipbook_stats" "handbook" {
  collection_hash = data.flipbook_collection.handbook.collection_hash
  flipbook_hash   = data.flipbook_collection.handbook.items[0].flipbook_hash
}

output "handbook_views" {
  value = data.flipbook_stats.handbook.views
}
