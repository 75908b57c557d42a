# The import ID is the collection hash.
terraform import flipbook_catalog.example <collection-hash>
