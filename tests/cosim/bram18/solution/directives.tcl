############################################################
## Hand-written for hlsinstr's cosim tests in the form Vivado HLS writes it.
############################################################
set_directive_array_partition -type cyclic -factor 2 -dim 1 "bram18" t
