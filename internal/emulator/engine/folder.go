package engine

import (
	"strconv"
	"strings"
)

// MaxFolderDepth is the spec's limit on folder levels.
const MaxFolderDepth = 3

// ValidateFolder checks the folder parameter of the generation actions and
// returns nil when it is valid; "" is valid and means the root folder.
//
// Each broken rule is reported once as "folder: <rule>", and a bad name is
// quoted with its level (1-based), so that a path with several faults lists
// all of them in level order. Spaces are significant and never trimmed.
func ValidateFolder(folder string) *Invalid {
	if folder == "" {
		return nil
	}
	c := checker{root: "folder"}
	const path = "folder"
	if strings.HasPrefix(folder, "/") || strings.HasSuffix(folder, "/") {
		c.add(path, "must not begin or end with \"/\"")
	}
	names := strings.Split(strings.Trim(folder, "/"), "/")
	if len(names) > MaxFolderDepth {
		c.add(path, "must have at most %d levels separated by \"/\", got %d", MaxFolderDepth, len(names))
	}
	for i, name := range names {
		level := "level " + strconv.Itoa(i+1)
		switch {
		case name == "":
			c.add(path, "%s is empty (\"//\" is not allowed)", level)
		case !onlyFolderChars(name):
			c.add(path, "%s name %q may contain only English letters, digits and spaces", level, name)
		case !isAlnum(name[0]) || !isAlnum(name[len(name)-1]):
			c.add(path, "%s name %q must begin and end with a letter or digit", level, name)
		}
	}
	return c.invalid()
}

// FolderKey is the case-insensitive identity of a valid folder path: two
// folder parameters name the same folder exactly when their keys are equal.
// Folder names are English letters only, so ASCII lower-casing suffices.
func FolderKey(folder string) string {
	return strings.ToLower(folder)
}

func isAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func onlyFolderChars(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) && s[i] != ' ' {
			return false
		}
	}
	return true
}
