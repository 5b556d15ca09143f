// System libxml2, found through pkg-config `libxml-2.0` (Debian: libxml2-dev).
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
