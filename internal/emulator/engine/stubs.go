package engine

// TemplateSections validates collection.createFromTemplate's sections. (TODO)
func TemplateSections(raw string, lib Library) (Generation, *Invalid) {
	return Generation{}, &Invalid{Message: ValidationFailed, Errors: []string{"sections: not implemented yet"}}
}

// CatalogSections validates and evaluates collection.createCatalog's sections. (TODO)
func CatalogSections(raw string, lib Library) (Generation, *Invalid) {
	return Generation{}, &Invalid{Message: ValidationFailed, Errors: []string{"sections: not implemented yet"}}
}

// ValidateFolder checks a folder path. (TODO)
func ValidateFolder(folder string) *Invalid { return nil }

// FolderKey is the case-insensitive identity of a folder path.
func FolderKey(folder string) string { return folder }

// PermissionEntry is one validated entry of collection.setPermissions.
type PermissionEntry struct {
	Type, Email, Group string
	NotifyViaEmail     bool
}

// ParsePermissions validates collection.setPermissions's permissions. (TODO)
func ParsePermissions(raw string) ([]PermissionEntry, *Invalid) {
	return nil, &Invalid{Message: ValidationFailed, Errors: []string{"Invalid permissions payload"}}
}
