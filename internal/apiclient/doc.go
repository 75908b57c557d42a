// Package apiclient speaks the Flipbook Publishing API. It knows nothing of
// Terraform: the provider builds one Client in Configure and shares it.
//
// Each call is signed (Sign: MD5 of the secret followed by every parameter
// but `signature`, sorted by key, as key+value pairs of the decoded values),
// sent with the method and base address the spec gives its action, and read
// as an envelope in JSON, JSONP or XML, sniffed from the body.
//
// # Call path
//
// A call passes through small layers around one exchange function, each in
// its own file with its own test (call.go composes them): coalescing
// (views.go), signing, retry (retry.go), the budget (budget.go), logging
// (log.go) and decoding, then the HTTP exchange. A new concern is a new
// layer.
//
// # Views
//
// On a Client built with Config.ViewTTL (the provider builds one per
// Terraform operation and sets DefaultViewTTL, two minutes), reads of one
// collection (collection.getCollection) or its access list
// (collection.getPermissions) at the same time share one call, and an
// answer is reused for at most the TTL, so no answer outlives the
// operation. Every write of the
// Client to the collection or list forgets the answer when it starts and
// ends, so no read shows an answer older than the Client's own write;
// setLogo and deleteBackgroundImage answer the collection, and their answer
// is the fresh view. Status polls read afresh. views.go states the rule.
//
// # Retries
//
// Throttles (codes 31, 32) and maintenance (code 22) are retried for every
// action: the service turned the call away, so sending it again is safe.
// Read actions also retry transport failures, answers that are not
// envelopes (*DecodeError), 5xx answers and code 50. A mutating action is
// retried freely only when the failure provably came before the request's
// headers were written (a refused dial). A later failure is ambiguous: the
// call may have taken effect. What then happens is decided per operation in
// policy.go: setPermissions, setLogo and deleteBackgroundImage set a state
// and are sent again; flipbook.add (and setPermissions with
// notifyViaEmail) read the service back and send again only what did not
// land; the two creates cannot be confirmed and end in an
// *OutcomeUnknownError. A mutating GET carries an empty, non-replayable
// body so that net/http never re-sends it on its own.
//
// Backoff doubles from RetryPolicy.MinBackoff (250 ms) to MaxBackoff (10 s)
// with equal jitter: retry n waits between half and all of
// min(MinBackoff·2^(n-1), MaxBackoff). A per-minute throttle (32) steps
// from 5 s to 60 s instead, so the default eight retries outlast the minute
// the service counts in, and maintenance (22) steps from 2 s to 16 s, at
// most four times. Sleeps end early when ctx ends.
//
// # Budget
//
// A Budget (shared by every Client built with it) holds two sliding
// windows, the last second and the last minute, as the service counts; each
// attempt, retries included, waits for a place in both. A call occupies a
// window until one window length after its answer, so calls admitted later
// cannot reach the service within one window of it however they bunch on
// the way. RequestsPerSecond and RequestsPerMinute are upper bounds; below
// them the budget learns the service's limits: a throttle (31 or 32) drops
// the window it names to the number of calls the service accepted in it,
// and once a whole window passes without a throttle the limit climbs back,
// doubling, to the highest that held (within two windows of the end of the
// contention), then probes a quarter higher now and then. Status polls wait
// behind other calls, and a Client remembers how long generations and
// conversions took (JobBook), so that a later wait reads the status first
// when an earlier job was seen done.
//
// # XML envelope
//
// With format=xml the answer is expected as
//
//	<response><code>20</code><status>OK</status><data>...</data></response>
//
// where each field is an element of its name, an array is an element whose
// children are all <item> (<collectionItems><item>...</item></collectionItems>),
// and an empty element reads as an absent value. The XML is turned into the
// equivalent JSON value and decoded into the same structs as JSON.
package apiclient
