package engine

import "testing"

func TestValidateFolder(t *testing.T) {
	cases := []struct {
		folder string
		want   []string
	}{
		{"", nil},
		{"Marketing", nil},
		{"Marketing/2026/Spring", nil},
		{"Spring Sale 2026", nil},
		{"a/b c/9", nil},
		{"/Marketing", []string{`folder: must not begin or end with "/"`}},
		{"Marketing/", []string{`folder: must not begin or end with "/"`}},
		{"a//b", []string{`folder: level 2 is empty ("//" is not allowed)`}},
		{"a/b/c/d", []string{`folder: must have at most 3 levels separated by "/", got 4`}},
		{"Spring!", []string{`folder: level 1 name "Spring!" may contain only English letters, digits and spaces`}},
		{"Été", []string{`folder: level 1 name "Été" may contain only English letters, digits and spaces`}},
		{"a/b_c", []string{`folder: level 2 name "b_c" may contain only English letters, digits and spaces`}},
		{" Spring", []string{`folder: level 1 name " Spring" must begin and end with a letter or digit`}},
		{"a/Spring ", []string{`folder: level 2 name "Spring " must begin and end with a letter or digit`}},
		{"/a/b!/ c/d/", []string{
			`folder: must not begin or end with "/"`,
			`folder: must have at most 3 levels separated by "/", got 4`,
			`folder: level 2 name "b!" may contain only English letters, digits and spaces`,
			`folder: level 3 name " c" must begin and end with a letter or digit`,
		}},
	}
	for _, tc := range cases {
		t.Run(tc.folder, func(t *testing.T) {
			assertInvalid(t, ValidateFolder(tc.folder), tc.want)
		})
	}
}

func TestFolderKey(t *testing.T) {
	if FolderKey("Marketing/2026/Spring") != FolderKey("marketing/2026/SPRING") {
		t.Error("folder paths differing only in case must share a key")
	}
	if FolderKey("Marketing/Spring") == FolderKey("Marketing/Spring Sale") {
		t.Error("different folders must have different keys")
	}
	if FolderKey("a b") == FolderKey("a  b") {
		t.Error("spaces are significant")
	}
}
