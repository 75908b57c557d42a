// Package emulator is a spec-complete, in-memory implementation of the
// Flipbook Publishing API for loopback use: the provider's acceptance tests
// start it in-process (Start), the demo and users run it as
// cmd/flipbook-emulator. It validates, limits, fails and answers as the spec
// says, to the code and status text; the pure rules (sections, catalogs,
// folders, permission payloads) live in the engine subpackage. It shares no
// code with the API client: it checks signatures on its own, so that each
// side tests the other.
//
// Where the spec states a rule the emulator follows its words, even where a
// stricter rule would look tidier. Every choice it makes where the spec is
// silent is listed in one place, the README's section "Where the spec is
// silent, the emulator …"; the paragraphs below describe the behaviour, and a
// choice added here must be added there too.
//
// # Layers
//
// The HTTP layer (api.go dispatches calls, actions.go and upload.go answer
// them, handler.go serves the control endpoints) reads requests and writes
// answers and never touches state; the store (store.go) is the only code
// that reads or changes what the emulator remembers, behind methods named
// for what they do, handing out copies; the engine subpackage holds the
// spec's pure rules. The state file has its own versioned types
// (statefile.go).
//
// # Addresses
//
// {base_url} is /api/v1/ and {upload_url} is /upload/v1/ (also without the
// trailing slash). Any other path under /api/ or /upload/ is a malformed URL
// (code 40). Every API answer is an envelope with HTTP 200 unless a fault
// says otherwise. Control endpoints live under /_emulator/ (below).
//
// # Parameters
//
// GET calls read the query; POST calls read the query and the body
// (application/x-www-form-urlencoded or multipart/form-data), the body
// winning when both carry a key; the first value of a repeated key counts.
// In a multipart body every part with a file name, or named "file", is a
// file; the other parts are form fields. Files are streamed to temporary
// files and never held in memory. A mandatory parameter sent empty counts
// as missing.
//
// Sizes the spec leaves open are capped (README, "Where the spec is silent,
// the emulator …", Limits): a urlencoded body at 10 MiB, a multipart form field at 1 MiB,
// a JSON parameter (sections, permissions) at 1 MiB and 64 levels of
// nesting, a control endpoint's body at 1 MiB. JSON parameters are read in
// time and memory linear in their length.
//
// # Order of the checks
//
// The spec gives the codes, not their precedence. Here:
//
//  1. fault injection (see Faults)
//  2. unreadable body: 40
//  3. apiKey, signature, action missing: 30 (data.message names it)
//  4. unknown apiKey: 41
//  5. signature mismatch: 44 (md5 hex of secret + sorted key/value pairs of
//     every parameter but signature; the file part is not signed, every
//     other form field is; the hex digits are compared case-insensitively)
//  6. rate limits: 31 per second, then 32 per minute
//  7. unknown action: 42; collection.create, collection.update and
//     collection.setBackgroundImage, which the spec names without
//     describing, are 40 ("not emulated")
//  8. wrong method (a GET action sent otherwise, createFromTemplate /
//     createCatalog / the upload actions not sent with POST) or wrong base
//     address (an upload action at /api/v1/, another at /upload/v1/): 40
//  9. format/callback on the four actions that take them: jsonp without
//     callback is 30 (the spec calls callback required for jsonp); an
//     unknown format or a callback that is not a JavaScript name is 40
//  10. the action's mandatory parameters: 30 (collectionHash, flipbookHash,
//     permissions, sections; for uploads, neither file nor fileUrl)
//  11. the action: unknown collection hash 46 (including a temporary hash
//     replaced by publishing), deleted or another account's collection 43,
//     then its own rules, below.
//
// A call refused with 31 or 32 spends no budget, and calls that fail
// authentication (30, 41, 44) are counted against no key. Codes 30, 40 and
// 42 carry data.message; validation failures carry data.message and
// data.errors. An upload whose file runs past 1 GiB (the drain bound) is
// not read further and is answered at once, without authentication (the
// fields after it were never read): 36 when it was a second file, else 34.
//
// # Rate limits
//
// limits.requestsPerSecond and limits.requestsPerMinute (0 = unlimited)
// count, per API key, the requests accepted in the last second and the last
// minute (sliding windows): a call that would make either count exceed its
// limit is refused with 31 (second checked first) or 32. A burst of N
// passes; the next call passes only once the oldest of them is a full
// second (or minute) old.
//
// # Generation
//
// createFromTemplate and createCatalog (POST) validate sections and folder
// through engine (40 with data.message and data.errors, folder errors
// first), create missing folders case-insensitively (a folder keeps the case
// it was first created with) and answer {collectionHash} at once. The state
// is computed on read from the creation time, with no goroutine per job:
// for generation.delayMs the collection shows collectionStatus and
// flipbookStatus "processing", collectionPageCount 0 and its single item
// PROCESSING with 0 pages; then
// collectionStatus generation.resultStatus (default "unlisted"), private as
// generation.private (default true), flipbookStatus "complete", one item
// (pdf, COMPLETE, the generated page count). publishDate is the end of the
// generation; it is empty for an editable collection. A title defaults to
// "Untitled". Under the generation_failed fault the call is accepted and the
// collection ends editable with flipbookStatus "failed", collectionPageCount
// 0 and its item FAILED. Hashes are 16 random hex digits.
//
// # Collections
//
// coverImage and directLink point at the emulator itself
// (/_emulator/cover/{hash}.svg, /_emulator/view/{hash}), built from the Host
// the call was sent to. flipbookPageCount is the first item's page count;
// flipbookStatus is "processing" while a generation runs or an added
// document converts, "failed" after a failed generation, else "complete".
// Settings default to 640x480, downloads, fullscreen and search enabled,
// English tooltips, background #2B2B2B scaled by scaleCrop, autoFlip off with
// a 5 s delay; a fixture collection's "settings" object overrides them.
// logoUrl and the share fields, deprecated in getCollection, never carry a
// value; logoImage does. With "stringScalars": true every settings number or
// boolean and every flipbookPageCount is a string ("640", "true").
//
// # Permissions
//
// getPermissions and setPermissions (GET) answer 38 while the collection
// generates and 48 unless it is published (public, unlisted or published),
// private and without password. A missing permissions parameter is 30 (the
// spec allows 30 or 40). setPermissions then checks the payload with
// engine.ParsePermissions and, only when the payload is valid, the plan:
// "OTP permissions are not available on your plan", "SSO permissions are
// not available on your plan" and, on a plan with SSO, "SSO is not enabled
// for this workspace" (40 with data.errors). Entries are then skipped silently when they name an unknown
// teammate group, an e-mail that is not an accepted reader (compared without
// case), or an unknown SSO group; the rest are saved in the order sent and
// answered without notifyViaEmail. When every entry of a non-empty list is
// skipped, nothing is saved (the spec's rule 6): the collection keeps its
// list and the answer's permissions is []. notifyViaEmail true on a saved entry
// records one Notification per recipient: every accepted reader for a bare
// teammate entry, the group's accepted readers, the reader, or the otp
// address; SSO viewers have no address and get none. A repeat call notifies
// again. Code 50 (the permissions service failing) comes from the fault kind
// "permissions_failure", which only hits the two permissions actions.
//
// # Embed, download, statistics
//
// getEmbed answers an iframe whose width and height are the collection's
// settings unless width/height are given (any number, as the spec types
// them: written as sent), 100% when responsive is true (true/false/1/0), and
// whose src carries startPage (a number, default 1) and startBook when not 1. https is checked
// as a boolean but the player is always the emulator's plain-http page.
// Any malformed value is 40 with data.errors naming each.
//
// downloadHTML answers 38 while the collection generates (the spec leaves
// this code open; 38 is the "in progress" code). The first call starts a
// package (PROCESSING); once generation.packageDelayMs (default 1000) has
// passed every call answers COMPLETE with a new resourceUrl,
// /_emulator/packages/{token}.zip, valid one minute (then HTTP 410): a real
// zip holding index.html. A failed generation's package is FAILED. Adding a
// document drops the package, so the next call builds a new one.
//
// getStats answers 47 for a flipbookHash that is not an item of the
// collection. Statistics are the fixture collection's "stats" for each of
// its items, otherwise stable numbers derived from the flipbook hash.
// user.getStats sums the account's item statistics (impressions three per
// view; time_spent total seconds) unless the account fixture has "stats";
// api_uploads_left is uploadsPerMonth (default 100; 0 allows none) minus the
// flipbook.add uploads of the current UTC month.
//
// # Uploads
//
// setLogo and flipbook.add (POST multipart to /upload/v1/) check, after
// the collection: (flipbook.add only) the monthly quota 33; more than one
// file part 36; a file over limits.maxUploadBytes (default 100 MB) 34,
// detected while streaming (copying stops at the limit; the rest of the
// body, up to 1 GiB, is read and discarded so that the sender can read the
// answer); fileUrl is used only without a file part and is fetched over
// HTTP with the same limit (a non-200 answer or a network error is 40).
// Logos share the size limit and are recognised by content: PNG, JPEG, GIF,
// WebP or SVG, else 45; the answer is the collection with settings.logoImage
// "logo-<hash>.<ext>"; logoUrl is recorded when sent. flipbook.add
// recognises a PDF by its %PDF- header and counts pages with pdfcpu
// (relaxed validation); anything else, or an unreadable PDF, is 45; more
// than limits.maxPages (default 500) pages is 35. The new item is appended
// with convertStatus PROCESSING for generation.conversionDelayMs (default
// 500) and then COMPLETE; title defaults to the PDF's information Title,
// else the file name without extension, and description to its Subject,
// else "Converted from <name>.pdf". Only the part named file is the file.
//
// deleteBackgroundImage (GET) records that the collection has no
// background image and answers the collection with backgroundColor
// "#FFFFFF" and transparentBackground false; an optional color parameter
// (#RGB or #RRGGBB, the field the spec's example shows without meaning)
// sets that colour instead, anything else is 40.
//
// # Formats
//
// setLogo, deleteBackgroundImage, flipbook.add and collection.getStats take
// format json (default, application/json), jsonp (callback(envelope);,
// application/javascript) or xml (application/xml, no prolog):
// <response><code>20</code><status>OK</status><data>…</data></response>
// with one element per field, in the JSON's order, and arrays as repeated
// <item> children of the array's element. The
// format applies to every answer of such a call, errors included, once it
// is itself valid.
//
// # Faults
//
// POST /_emulator/faults {"rate": r, "kinds": [...]} (or SetFaults, or the
// fixture's "faults") makes a share r of API calls meet one of the kinds
// that can hit that call, chosen uniformly: rate_limit (an envelope 31 or
// 32), http_502 (HTTP 502 with an HTML page), reset (the connection is
// closed without an answer), slow (the call runs after faults.slowMs,
// default 3000 ms), garbage (HTTP 200 with a truncated JSON body) and
// maintenance (code 22 "Maintenance mode") all happen before the call
// changes anything; reset_after performs the call, uploads included, and
// then closes the connection; generation_failed (generations only),
// conversion_failed (flipbook.add only) and package_failed (downloadHTML
// only) let the job be accepted and end FAILED (a failed package is
// reported once; the next call starts a new one); permissions_failure
// (getPermissions/setPermissions only) answers 50. Control endpoints never
// meet faults.
//
// An optional "actions" list (SetFaultsOn) limits faults to those actions.
//
// The dice are seeded (Options.FaultSeed or faults.seed) and keyed by the
// call: the fate of the nth call with given parameters (signature and
// hashes aside) is the same in every run, however concurrent callers
// interleave, so a fault pattern replays.
//
// # Control endpoints
//
// No authentication, JSON in and out:
//
//	GET    /_emulator/health                     {"status": "ok"} once the API answers
//	POST   /_emulator/reset                      the world the fixture made at start, faults off
//	PUT    /_emulator/fixture                    a new world from the fixture in the body (400 when bad)
//	GET    /_emulator/collections                every collection (deleted ones with "deleted": true)
//	GET    /_emulator/collections/{hash}         one collection
//	POST   /_emulator/collections/{hash}/publish new final hash: {"collectionHash": "..."}; the old one is 46;
//	                                             an editable collection becomes unlisted (409 while generating)
//	POST   /_emulator/collections/{hash}/access  {"private": bool, "password": bool, "status": "..."}, any subset
//	POST   /_emulator/collections/{hash}/rename  {"title": "..."}: renamed as in the web editor
//	DELETE /_emulator/collections/{hash}         the API answers 43 from then on
//	GET    /_emulator/requests                   {"byAction": {action: {"20": n, "31": m, "fault": k}}}
//	DELETE /_emulator/requests                   zeroes the counters
//	GET    /_emulator/faults, POST /_emulator/faults
//	GET    /_emulator/notifications              e-mails notifyViaEmail would have sent
//	POST   /_emulator/generation                 {"delayMs": n}: delay of generations started from now on
//	GET    /_emulator/view/{hash}, /_emulator/cover/{hash}.svg, /_emulator/packages/{token}.zip
//
// Unknown hashes are 404, deleted or generating collections 409, bad
// bodies 400, each with {"error": "..."}.
//
// # Fixture
//
// The README's "Fixture" paragraph lists the format. This package adds: top-level
// "stringScalars" and "faults" {rate, kinds, slowMs, seed};
// generation.conversionDelayMs and generation.packageDelayMs; per account
// "uploadsThisMonth" and "stats" {impressions, views, time_spent,
// downloads}; per collection "description", "items" [{flipbookHash, title,
// description, pageCount, extension}] (without items a pageCount gives one
// item whose hash is "fb-" + collectionHash), "folder", "backgroundImage",
// "settings", "stats" {views, time_spent, downloads} and "permissions".
// A feed may give "file" (a CSV or JSON file of products, relative to the
// fixture file) instead of "products"; see feedfile.go. Unknown fields are
// errors.
//
// # Player
//
// GET /_emulator/view/{hash}, the page directLink and embed codes point at,
// draws every page of the collection from the same engine that counted its
// pages; see player.go.
//
// # Demo fixture
//
// DemoFixture (fixtures/demo.json, the binary's default): account
// demo-key/demo-secret with OTP and SSO on the plan and SSO enabled, 100
// uploads a month; accepted readers ana, ben (Sales), ben, chloe (Support),
// dan (Marketing) @example.com and not accepted eve (Sales) and finn; groups
// Sales, Support, Marketing, Empty; SSO groups Partners, Staff; templates
// tpl-cover (2 pages: headline, subtitle, gallery), tpl-product (1 page,
// 6 products), tpl-article (4 pages), tpl-back (1 page), tpl-grid (12
// products); feed feed-shoes (36 products B01..B36: sku, brand, category,
// price, size, color); collections pub-private-1 (unlisted, private, 4
// pages: the one to put permissions on), pub-public-1 (public, not private),
// pub-password-1 (password set), draft-1 (editable). A second account
// other-key/other-secret, with neither OTP nor SSO and 5 uploads a month,
// owns other-private-1. Generation takes 2 s; stringScalars is on.
//
// # State
//
// With Options.StateFile (-state) the accounts' folders, upload counts and
// all collections are written after every change (a temporary file renamed
// over the old one) and loaded at start instead of the fixture's
// collections; a fixture collection the state file has never held (one
// added to the fixture later) is added after them. Request counters, faults,
// notifications and download links are not kept. The file carries a
// "version" (1 today); a file of an older version is migrated when read, a
// newer one refused. New keeps the Fixture it is given: do not change it
// afterwards (DemoFixture returns a fresh copy on every call).
package emulator
