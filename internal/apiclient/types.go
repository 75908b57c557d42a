package apiclient

import (
	"encoding/json"
	"io"
)

// Action names of the twelve operations, as sent in the `action` parameter.
const (
	ActionCreateFromTemplate    = "collection.createFromTemplate"
	ActionCreateCatalog         = "collection.createCatalog"
	ActionGetCollection         = "collection.getCollection"
	ActionGetPermissions        = "collection.getPermissions"
	ActionSetPermissions        = "collection.setPermissions"
	ActionGetEmbed              = "collection.getEmbed"
	ActionDownloadHTML          = "collection.downloadHTML"
	ActionGetStats              = "collection.getStats"
	ActionSetLogo               = "collection.setLogo"
	ActionDeleteBackgroundImage = "collection.deleteBackgroundImage"
	ActionAddFlipbook           = "flipbook.add"
	ActionUserGetStats          = "user.getStats"
)

// Section types.
const (
	SectionStatic = "static"
	SectionBlank  = "blank"
	SectionFeed   = "feed"
)

// Collection statuses the service documents or shows. Unknown values are kept
// as they arrive; these constants only name the ones the client acts on.
const (
	CollectionProcessing = "processing"
	FlipbookComplete     = "complete"
	FlipbookFailed       = "failed"
)

// Item convertStatus and download package status values.
const (
	StatusProcessing = "PROCESSING"
	StatusComplete   = "COMPLETE"
	StatusFailed     = "FAILED"
)

// Permission types.
const (
	PermissionTeammate = "teammate"
	PermissionOTP      = "otp"
	PermissionSSO      = "sso"
)

// Response formats accepted by setLogo, deleteBackgroundImage, flipbook.add
// and collection.getStats.
const (
	FormatJSON  = "json"
	FormatJSONP = "jsonp"
	FormatXML   = "xml"
)

// StringOrList is a JSON value that is either one string or a list of
// strings: element values, condition values and custom sort orders.
type StringOrList struct {
	Value  string
	List   []string
	IsList bool
}

// String makes a single-string value.
func String(s string) StringOrList { return StringOrList{Value: s} }

// List makes a list value; an empty list stays a list.
func List(l ...string) StringOrList {
	return StringOrList{List: append([]string{}, l...), IsList: true}
}

// MarshalJSON writes a string or an array, without HTML escaping (an
// element value such as "a & b" is sent, and signed, as written).
func (v StringOrList) MarshalJSON() ([]byte, error) {
	if v.IsList {
		if v.List == nil {
			return []byte("[]"), nil
		}
		s, err := marshalJSON(v.List)
		return []byte(s), err
	}
	s, err := marshalJSON(v.Value)
	return []byte(s), err
}

// UnmarshalJSON reads a string or an array of strings.
func (v *StringOrList) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*v = StringOrList{Value: s}
		return nil
	}
	var l []string
	if err := json.Unmarshal(b, &l); err != nil {
		return err
	}
	*v = StringOrList{List: l, IsList: true}
	return nil
}

// Section is one entry of the `sections` JSON of createFromTemplate (static,
// blank) and createCatalog (feed). Fields that do not belong to Type stay zero
// and are omitted from the JSON.
type Section struct {
	Type      string        `json:"sectionType"`
	PageBreak *bool         `json:"pageBreak,omitempty"`
	Templates []TemplateRef `json:"templates,omitempty"`
	Elements  []Element     `json:"elements,omitempty"`
	PageCount *int          `json:"pageCount,omitempty"`
	Sources   []SourceRef   `json:"sources,omitempty"`
	GroupBy   []GroupBy     `json:"groupBy,omitempty"`
	SortBy    []SortBy      `json:"sortBy,omitempty"`
	Filters   []FilterBlock `json:"filters,omitempty"`
}

// TemplateRef names a template; Pages are zero-based page indexes (static
// sections only; nil means all pages).
type TemplateRef struct {
	TemplateHash string `json:"templateHash"`
	Pages        []int  `json:"templatePages,omitempty"`
}

// Element injects a value into a template layer named Name.
type Element struct {
	Name  string       `json:"name"`
	Value StringOrList `json:"value"`
}

// SourceRef names a product feed.
type SourceRef struct {
	SourceHash string `json:"sourceHash"`
}

// GroupBy groups products by Field, outermost first.
type GroupBy struct {
	Field     string `json:"field"`
	PageBreak bool   `json:"pageBreak,omitempty"`
}

// SortBy sorts by Field; Order is "asc", "desc" or a custom order list.
type SortBy struct {
	Field string       `json:"field"`
	Order StringOrList `json:"order"`
}

// FilterBlock narrows (include) or removes (exclude) products.
type FilterBlock struct {
	Mode       string      `json:"mode"`
	Match      string      `json:"match,omitempty"`
	Conditions []Condition `json:"conditions"`
}

// Condition compares a feed column with Value; in, nin and between take a
// list, the other operators a single string.
type Condition struct {
	Field    string       `json:"field"`
	Operator string       `json:"operator"`
	Value    StringOrList `json:"value"`
}

// CreateFromTemplateInput is collection.createFromTemplate's parameters.
type CreateFromTemplateInput struct {
	Sections []Section
	Title    string
	Folder   string
}

// CreateCatalogInput is collection.createCatalog's parameters.
type CreateCatalogInput struct {
	Sections []Section
	Title    string
	Folder   string
}

// Collection is the service's collection object. Numbers and booleans are
// decoded tolerantly (see Int and Bool); status strings are kept verbatim.
type Collection struct {
	CollectionHash        string           `json:"collectionHash"`
	CollectionTitle       string           `json:"collectionTitle"`
	CollectionDescription string           `json:"collectionDescription"`
	CollectionStatus      string           `json:"collectionStatus"`
	CoverImage            string           `json:"coverImage"`
	CollectionPageCount   Int              `json:"collectionPageCount"`
	CreatedDate           string           `json:"createdDate"`
	PublishDate           string           `json:"publishDate"`
	DirectLink            string           `json:"directLink"`
	FlipbookPageCount     Int              `json:"flipbookPageCount"`
	FlipbookStatus        string           `json:"flipbookStatus"`
	Settings              Settings         `json:"settings"`
	CollectionItems       []CollectionItem `json:"collectionItems"`
}

// Settings is the player settings object.
type Settings struct {
	CollectionWidth        Int    `json:"collectionWidth"`
	CollectionHeight       Int    `json:"collectionHeight"`
	CollectionStatus       string `json:"collectionStatus"`
	EnableDownload         Bool   `json:"enableDownload"`
	EnableFullScreen       Bool   `json:"enableFullScreen"`
	EnableSearch           Bool   `json:"enableSearch"`
	TooltipsLanguage       string `json:"tooltipsLanguage"`
	TransparentBackground  Bool   `json:"transparentBackground"`
	BackgroundColor        string `json:"backgroundColor"`
	BackgroundScaleType    string `json:"backgroundScaleType"`
	AutoFlip               Bool   `json:"autoFlip"`
	AutoFlipDelay          Int    `json:"autoFlipDelay"`
	RightToLeftOrientation Bool   `json:"rightToLeftOrientation"`
	SinglePageView         Bool   `json:"singlePageView"`
	LogoURL                string `json:"logoUrl"`
	LogoImage              string `json:"logoImage"`
	ShareFacebook          Bool   `json:"shareFacebook"`
	ShareTwitter           Bool   `json:"shareTwitter"`
	ShareGooglePlus        Bool   `json:"shareGooglePlus"`
	SharePinterest         Bool   `json:"sharePinterest"`
	ShareEmail             Bool   `json:"shareEmail"`
	ShareLinkText          string `json:"shareLinkText"`
}

// CollectionItem is one flipbook of a collection.
type CollectionItem struct {
	FlipbookHash        string `json:"flipbookHash"`
	FlipbookPageCount   Int    `json:"flipbookPageCount"`
	FlipbookTitle       string `json:"flipbookTitle"`
	FlipbookDescription string `json:"flipbookDescription"`
	Extension           string `json:"extension"`
	ConvertStatus       string `json:"convertStatus"`
}

// Permission is one access row. NotifyViaEmail is request-only.
type Permission struct {
	Type           string `json:"type"`
	Email          string `json:"email,omitempty"`
	Group          string `json:"group,omitempty"`
	NotifyViaEmail bool   `json:"notifyViaEmail,omitempty"`
}

// EmbedInput is collection.getEmbed's parameters; nil means the service's
// default. The deprecated `https` and `startBook` are not offered.
type EmbedInput struct {
	CollectionHash string
	Responsive     *bool
	// The spec types startPage, width and height as "number".
	StartPage *float64
	Width     *float64
	Height    *float64
}

// DownloadPackage is collection.downloadHTML's answer.
type DownloadPackage struct {
	Status      string `json:"status"`
	ResourceURL string `json:"resourceUrl"`
}

// FlipbookStats is collection.getStats's answer.
type FlipbookStats struct {
	Views     Int `json:"views"`
	TimeSpent Int `json:"time_spent"`
	Downloads Int `json:"downloads"`
}

// UserStats is user.getStats's answer.
type UserStats struct {
	Impressions    Int `json:"impressions"`
	Views          Int `json:"views"`
	TimeSpent      Int `json:"time_spent"`
	Downloads      Int `json:"downloads"`
	APIUploadsLeft Int `json:"api_uploads_left"`
}

// ResponseFormat selects `format` and `callback` on the four actions that take
// them. The zero value sends neither (JSON). The client decodes every format.
type ResponseFormat struct {
	Format   string
	Callback string
}

// Upload is a file part streamed from Body; it is read once, never buffered
// whole. Size, when known (>0), lets the client refuse an oversized file
// before sending.
type Upload struct {
	Name string
	Body io.Reader
	Size int64
}

// SetLogoInput is collection.setLogo's parameters: File or FileURL.
type SetLogoInput struct {
	CollectionHash string
	File           *Upload
	FileURL        string
	LogoURL        string
	ResponseFormat
}

// AddFlipbookInput is flipbook.add's parameters: File or FileURL.
type AddFlipbookInput struct {
	CollectionHash string
	File           *Upload
	FileURL        string
	Title          string
	Description    string
	ResponseFormat
}

// Flipbook is flipbook.add's answer.
type Flipbook struct {
	FlipbookHash        string `json:"flipbookHash"`
	FlipbookTitle       string `json:"flipbookTitle"`
	FlipbookDescription string `json:"flipbookDescription"`
	FlipbookPageCount   Int    `json:"flipbookPageCount"`
	Extension           string `json:"extension"`
	ConvertStatus       string `json:"convertStatus"`
}
