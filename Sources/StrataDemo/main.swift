import Strata

print("Strata")
