// The cube reader's descriptor validator alone (its random tests against the model).
accel_csr_pkg.sv
accel_pkg.sv
param_contract.sv
cr_desc_validator.sv
