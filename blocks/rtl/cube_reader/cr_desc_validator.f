// The cube reader's descriptor validator alone (its random tests against the model).
../common/accel_csr_pkg.sv
../common/accel_pkg.sv
../common/param_contract.sv
cr_desc_validator.sv
