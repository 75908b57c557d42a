//go:build depspin

// This file only keeps go.mod and go.sum complete while the packages that
// import these modules are being written; it is removed once they exist.
package main

import (
	_ "github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	_ "github.com/hashicorp/terraform-plugin-framework-timeouts/ephemeral/timeouts"
	_ "github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	_ "github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	_ "github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	_ "github.com/hashicorp/terraform-plugin-framework-validators/objectvalidator"
	_ "github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	_ "github.com/hashicorp/terraform-plugin-framework/providerserver"
	_ "github.com/hashicorp/terraform-plugin-go/tfprotov6"
	_ "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	_ "github.com/hashicorp/terraform-plugin-testing/echoprovider"
	_ "github.com/hashicorp/terraform-plugin-testing/plancheck"
	_ "github.com/hashicorp/terraform-plugin-testing/statecheck"
	_ "github.com/hashicorp/terraform-plugin-testing/knownvalue"
	_ "github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	_ "github.com/pdfcpu/pdfcpu/pkg/api"
	_ "golang.org/x/time/rate"
)
