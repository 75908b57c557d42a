# The import ID is the collection hash.
terraform import flipbook_collection_logo.example <collection-hash>
