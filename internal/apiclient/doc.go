// Package apiclient speaks the Flipbook Publishing API. It knows nothing of
// Terraform: the provider builds one Client in Configure and shares it.
//
// Each call is signed (Sign: MD5 of the secret followed by every parameter
// but `signature`, sorted by key, as key+value pairs of the decoded values),
// sent with the method and base address the spec gives its action, and read
// as an envelope in JSON, JSONP or XML, sniffed from the body.
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
// and the limit grows back by one call after three windows' worth of calls
// succeeded at it. Status polls wait behind other calls, and the Budget
// remembers how long generations and conversions took, so that a later
// wait reads the status first when an earlier job was seen done.
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
