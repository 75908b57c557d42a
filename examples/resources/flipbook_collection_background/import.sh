# The import ID is the collection hash.
terraform import flipbook_collection_background.example <collection-hash>
