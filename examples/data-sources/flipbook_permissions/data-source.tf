# The access list of a published private collection, as the service saved it.
data "flipbook_permissions" "handbook" {
  collection_hash = "pub-private-1"
}

output "handbook_readers" {
  value = [for p in data.flipbook_permissions.handbook.permissions : coalesce(p.email, p.group, p.type)]
}
