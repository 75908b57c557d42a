# The import ID is the flipbook hash of the document.
terraform import flipbook_document.example <flipbook-hash>
