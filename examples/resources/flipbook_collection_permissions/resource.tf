# Who may open a private collection. This resource owns the collection's whole
# access list: entries set elsewhere are removed on the next apply. The
# collection must be published, private and without a password.
resource "flipbook_collection_permissions" "example" {
  collection_hash = "pub-private-1"

  permissions = [
    { type = "teammate", group = "Sales" },
    { type = "teammate", email = "ana@example.com" },
  ]
}
