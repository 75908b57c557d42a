# The import ID is the collection hash; the current access list becomes the
# resource's state.
terraform import flipbook_collection_permissions.example <collection-hash>
