// System libxml2, found through pkg-config `libxml-2.0` (Debian: libxml2-dev).
#include <libxml/xmlversion.h>

// Debian builds libxml2 with ICU, so <libxml/encoding.h> includes the system
// <unicode/ucnv.h>. Its `UErrorCode` clashes with the copy inside Foundation's
// `_FoundationICU` module, and Swift refuses to import both. Strata never touches
// `xmlCharEncodingHandler` (the only struct whose layout depends on this macro; it only
// adds trailing ICU converter fields), so the ICU part of the headers is left out.
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlwriter.h>
