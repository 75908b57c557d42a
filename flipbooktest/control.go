package flipbooktest

import (
	"bytes"
	"time"

	"github.com/flipbook/terraform-provider-flipbook/internal/emulator"
)

// Collection is a collection as the emulator holds it, deleted ones
// included: more than the API shows (the owning key, privacy, the folder,
// the layout of a catalog).
type Collection struct {
	Hash     string
	APIKey   string
	Title    string
	Status   string // collectionStatus now, "processing" while generating
	Private  bool
	Password bool
	Deleted  bool
	// Kind is "fixture", "template" or "catalog".
	Kind           string
	Folder         string
	PageCount      int
	FlipbookStatus string
	// Layout is a catalog's SKUs, one slice per page, in page order.
	Layout      [][]string
	Items       []Item
	Permissions []Permission
}

// Item is a flipbook of a collection.
type Item struct {
	Hash          string
	Title         string
	Description   string
	PageCount     int
	ConvertStatus string
}

// Permission is a saved access row.
type Permission struct {
	Type  string
	Email string
	Group string
}

// Notification is an e-mail collection.setPermissions would have sent.
type Notification struct {
	APIKey         string
	CollectionHash string
	Email          string
	Type           string
	Group          string
	Time           time.Time
}

// Faults is the fault injection in force (see SetFaults).
type Faults struct {
	// Rate is the share of API calls that meet a fault, 0 to 1.
	Rate float64
	// Kinds are the Fault* constants to draw from.
	Kinds []string
	// Actions limits faults to these API actions; empty means all.
	Actions []string
}

// Access changes what decides whether a collection may have permissions;
// nil leaves a field as it is.
type Access struct {
	Private  *bool
	Password *bool
	// Status is a collectionStatus: public, editable, unlisted or published.
	Status *string
}

func collectionOf(v emulator.CollectionView) Collection {
	c := Collection{
		Hash: v.CollectionHash, APIKey: v.APIKey, Title: v.Title, Status: v.Status, Private: v.Private,
		Password: v.Password, Deleted: v.Deleted, Kind: v.Kind, Folder: v.Folder, PageCount: v.PageCount,
		FlipbookStatus: v.FlipbookStatus, Layout: v.Layout,
	}
	for _, it := range v.Items {
		c.Items = append(c.Items, Item{Hash: it.FlipbookHash, Title: it.Title, Description: it.Description, PageCount: it.PageCount, ConvertStatus: it.ConvertStatus})
	}
	for _, p := range v.Permissions {
		c.Permissions = append(c.Permissions, Permission(p))
	}
	return c
}

// Collections lists every collection of every account in creation order,
// deleted ones included.
func (s *Server) Collections() []Collection {
	var out []Collection
	for _, v := range s.srv.Emulator.Collections() {
		out = append(out, collectionOf(v))
	}
	return out
}

// Collection is one collection by hash (ErrUnknownCollection when none).
func (s *Server) Collection(hash string) (Collection, error) {
	v, err := s.srv.Emulator.Collection(hash)
	if err != nil {
		return Collection{}, err
	}
	return collectionOf(v), nil
}

// Publish publishes a collection as the web editor does and returns its new
// final hash; the old hash is gone (the API answers code 46 for it).
func (s *Server) Publish(hash string) (string, error) { return s.srv.Emulator.Publish(hash) }

// Rename renames a collection as the web editor does: the API then reports
// the new collectionTitle (drift for a Terraform plan to find).
func (s *Server) Rename(hash, title string) error { return s.srv.Emulator.Rename(hash, title) }

// SetAccess changes a collection's privacy, password or status.
func (s *Server) SetAccess(hash string, a Access) error {
	return s.srv.Emulator.SetAccess(hash, a.Private, a.Password, a.Status)
}

// Delete deletes a collection as the web application does (the API cannot):
// the API answers code 43 for it from then on.
func (s *Server) Delete(hash string) error { return s.srv.Emulator.Delete(hash) }

// SetFaults makes a share of API calls meet faults; Faults{} turns them off.
// Control helpers never meet faults.
func (s *Server) SetFaults(f Faults) error {
	return s.srv.Emulator.SetFaultsOn(f.Actions, f.Rate, f.Kinds)
}

// Faults is the fault injection in force.
func (s *Server) Faults() Faults {
	f := s.srv.Emulator.Faults()
	return Faults{Rate: f.Rate, Kinds: f.Kinds, Actions: f.Actions}
}

// Requests counts the API calls so far by action and by the code they were
// answered with ("20", "31" ...; "fault" for a fault that sent no
// envelope): Requests()["collection.getCollection"]["20"].
func (s *Server) Requests() map[string]map[string]int { return s.srv.Emulator.Requests() }

// ResetRequests zeroes the request counters.
func (s *Server) ResetRequests() { s.srv.Emulator.ResetRequests() }

// Notifications lists, oldest first, the e-mails notifyViaEmail would have
// sent.
func (s *Server) Notifications() []Notification {
	var out []Notification
	for _, n := range s.srv.Emulator.Notifications() {
		out = append(out, Notification(n))
	}
	return out
}

// SetGenerationDelay sets how long generations started from now on stay
// processing.
func (s *Server) SetGenerationDelay(d time.Duration) { s.srv.Emulator.SetGenerationDelay(d) }

// Reset returns the emulator to the world its fixture made at start:
// collections, uploads, counters and notifications as they were, faults
// off. A suite that shares one server resets it between cases.
func (s *Server) Reset() { s.srv.Emulator.Reset() }

// ReplaceFixture replaces the whole world with the fixture JSON given (it may
// not name feed files); a bad fixture is an error and the world stays. A
// later Reset returns to this fixture.
func (s *Server) ReplaceFixture(b []byte) error {
	fx, err := emulator.ParseFixtureBody(bytes.NewReader(b))
	if err != nil {
		return err
	}
	return s.srv.Emulator.ReplaceFixture(fx)
}
