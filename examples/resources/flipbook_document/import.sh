# The import ID is "<collection-hash>/<flipbook-hash>": the API finds a
# flipbook only through the collection it belongs to.
terraform import flipbook_document.example <collection-hash>/<flipbook-hash>
