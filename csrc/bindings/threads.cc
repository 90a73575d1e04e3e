// Threads and Ctrl-C for the Python module (docs/api.md "Threads and Ctrl-C"): the poll that
// lets a long C++ call notice a pending KeyboardInterrupt, and the per-object lock that keeps
// one object used from several Python threads consistent.
#include <pybind11/pybind11.h>

#include "bindings/helpers.h"

namespace vikinger {

std::function<bool()> PythonSignalPoll() {
  return [] {
    py::gil_scoped_acquire gil;
    // Runs Python's signal handlers in the main thread (elsewhere it returns 0); a handler that
    // raises (SIGINT's default raises KeyboardInterrupt) leaves its exception set and returns -1.
    return PyErr_CheckSignals() != 0;
  };
}

void ThrowIfInterrupted(const Interrupt& interrupt) {
  if (!interrupt.Stopped()) return;
  // The poll stops the work only when a handler raised, so its exception is set; should anything
  // else stop it, the caller still gets the KeyboardInterrupt a user expects.
  if (PyErr_Occurred() == nullptr) PyErr_SetNone(PyExc_KeyboardInterrupt);
  throw py::error_already_set();
}

ObjectLock::ObjectLock(std::mutex& mutex) : lock_(mutex, std::try_to_lock) {
  if (lock_.owns_lock()) return;
  // Another thread holds the object, maybe inside a call that will take the GIL back (its
  // signal poll): wait without the GIL.
  py::gil_scoped_release release;
  lock_.lock();
}

}  // namespace vikinger
