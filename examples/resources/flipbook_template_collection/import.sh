# The import ID is the collection hash. Publishing a collection gives it a new
# hash: import again with the new one.
terraform import flipbook_template_collection.example <collection-hash>
