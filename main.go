// Command terraform-provider-flipbook serves the Flipbook provider to Terraform.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/flipbook/terraform-provider-flipbook/internal/provider"
)

// Set by the release build's ldflags.
var (
	version = "dev"
	commit  = "none"
)

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run with support for debuggers like delve")
	flag.Parse()

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address:         "registry.terraform.io/flipbook/flipbook",
		Debug:           debug,
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatalf("terraform-provider-flipbook %s (%s): %s", version, commit, err)
	}
}
