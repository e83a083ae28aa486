// Builds "index 10 is out of bounds for axis 0 with size 10 ..." from a failure record.
#include "runtime/bounds_report.h"

namespace simt {

namespace {
std::string triple(const int64_t* v) {
    return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + ")";
}

// "<message> (kernel 'k' at file:line, thread (x, y, z) of block (x, y, z))", after the raised
// class's name and a newline for a raise.
std::string describe_assertion(const std::string& kernel, const std::vector<BoundsSite>& sites, const BoundsErrorRecord& r) {
    std::string text = "assertion failed", where = "kernel '" + kernel + "'", raised = "RuntimeError";
    if (r.site >= 0 && size_t(r.site) < sites.size()) {
        const BoundsSite& s = sites[size_t(r.site)];
        text = s.assertion;
        if (!s.exception.empty()) raised = s.exception;
        where += " at " + s.filename + ":" + std::to_string(s.line);
        if (s.function != kernel) where += " (in device function '" + s.function + "')";
    }
    std::string report = (text.empty() ? "" : text + " ") + "(" + where + ", thread " + triple(r.index) + " of block " +
                         triple(r.index + 3) + ")";
    return r.ndim == kRaiseRecord ? raised + "\n" + report : report;  // a raise: the class first (see ErrorKind::Raised)
}
}  // namespace

std::string describe_bounds_error(const std::string& kernel, const std::vector<BoundsSite>& sites,
                                  const BoundsErrorRecord& r) {
    if (r.ndim == kAssertRecord || r.ndim == kRaiseRecord) return describe_assertion(kernel, sites, r);
    int ndim = r.ndim > 8 ? 8 : r.ndim;
    std::string index, shape;
    int axis = 0;
    for (int k = 0; k < ndim; ++k) {
        index += (k ? ", " : "") + std::to_string(r.index[k]);
        shape += (k ? ", " : "") + std::to_string(r.shape[k]);
        int64_t i = r.index[k] < 0 ? r.index[k] + r.shape[k] : r.index[k];
        if (i < 0 || i >= r.shape[k]) axis = k;
    }
    if (ndim == 1) { index = index; shape += ","; }
    std::string msg = "index " + std::to_string(r.index[axis]) + " is out of bounds for axis " + std::to_string(axis) +
                      " with size " + std::to_string(r.shape[axis]);
    std::string where = "kernel '" + kernel + "'";
    if (r.site >= 0 && size_t(r.site) < sites.size()) {
        const BoundsSite& s = sites[size_t(r.site)];
        msg += " (array '" + s.array + "' of shape (" + shape + "), index (" + index + "))";
        where = "kernel '" + kernel + "' at " + s.filename + ":" + std::to_string(s.line);
        if (s.function != kernel) where += " (in device function '" + s.function + "')";
    }
    return msg + " in " + where;
}

}  // namespace simt
