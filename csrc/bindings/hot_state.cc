// The State methods of a Python-driven game loop, bound without pybind11's dispatcher.
//
// `while not s.is_terminal(): s.apply_action(choice(s.legal_actions()))` calls three methods per
// step; through pybind11's generic dispatcher (argument loaders, overload resolution) each costs
// more than the engine's work. These five are plain CPython methods instead (METH_NOARGS /
// METH_O), added to the pybind11 class State, with the behaviour and errors of docs/api.md: the
// argument checks go through the same helpers as every other method (bindings/helpers.h), and the
// ids of legal lists are shared int objects made once.
#include <pybind11/pybind11.h>

#include <stdexcept>

#include "bindings/helpers.h"
#include "rules/actions.h"
#include "rules/legal_set.h"
#include "rules/state.h"

namespace py = pybind11;

namespace vikinger {
namespace {

// Every decision and chance id as a Python int, made once and never freed (the module lives as
// long as the interpreter).
PyObject* ids[kNumDistinctActions];

State& Self(PyObject* self) { return py::handle(self).cast<State&>(); }

// Runs `body` (returning a new reference) and turns C++ exceptions into Python ones, as
// pybind11 does for bound functions: ValueError for std::invalid_argument (rule refusals),
// TypeError for vikinger::TypeError, pybind11's own errors as they are.
template <typename Body>
PyObject* Guarded(Body body) {
  try {
    return body();
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (const py::builtin_exception& e) {
    e.set_error();
  } catch (const TypeError& e) {
    PyErr_SetString(PyExc_TypeError, e.what());
  } catch (const std::invalid_argument& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

PyObject* IsTerminalMethod(PyObject* self, PyObject*) {
  return Guarded([&] { return PyBool_FromLong(IsTerminal(Self(self).position)); });
}

PyObject* IsChanceNodeMethod(PyObject* self, PyObject*) {
  return Guarded([&] { return PyBool_FromLong(IsChanceNode(Self(self).position)); });
}

PyObject* CurrentPlayerMethod(PyObject* self, PyObject*) {
  return Guarded([&] { return PyLong_FromLong(CurrentPlayer(Self(self).position)); });
}

PyObject* LegalActionsMethod(PyObject* self, PyObject*) {
  return Guarded([&]() -> PyObject* {
    int legal[kMaxLegalActions];
    const int n = LegalActions(Self(self).position, legal);
    PyObject* list = PyList_New(n);
    if (list == nullptr) return nullptr;
    for (int i = 0; i < n; ++i) {
      Py_INCREF(ids[legal[i]]);
      PyList_SET_ITEM(list, i, ids[legal[i]]);
    }
    return list;
  });
}

// The one argument of apply_action, given by position or as action= (the reference's signature);
// nullptr with a TypeError set otherwise.
PyObject* ActionArgument(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  const Py_ssize_t nkw = kwnames == nullptr ? 0 : PyTuple_GET_SIZE(kwnames);
  if (nargs == 1 && nkw == 0) return args[0];
  if (nargs == 0 && nkw == 1 &&
      PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "action") == 0) {
    return args[0];
  }
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, k);
    if (PyUnicode_CompareWithASCIIString(name, "action") != 0) {
      PyErr_Format(PyExc_TypeError, "apply_action() got an unexpected keyword argument '%U'", name);
      return nullptr;
    }
  }
  PyErr_Format(PyExc_TypeError, "apply_action() takes exactly one argument, action (%zd given)",
               nargs + nkw);
  return nullptr;
}

PyObject* ApplyActionMethod(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                            PyObject* kwnames) {
  PyObject* action = ActionArgument(args, nargs, kwnames);
  if (action == nullptr) return nullptr;
  return Guarded([&]() -> PyObject* {
    State& state = Self(self);
    int overflow = 0;
    const long long id =
        PyLong_CheckExact(action) ? PyLong_AsLongLongAndOverflow(action, &overflow) : 0;
    if (PyLong_CheckExact(action) && !overflow) {
      state.ApplyAction(id);  // a plain int: no conversion needed
    } else {
      ApplyAction(state, action);  // numpy integers, bools, other types, huge ints
    }
    Py_RETURN_NONE;
  });
}

PyMethodDef methods[] = {
    {"is_terminal", IsTerminalMethod, METH_NOARGS,
     "is_terminal($self, /)\n--\n\nTrue once the game is over."},
    {"is_chance_node", IsChanceNodeMethod, METH_NOARGS,
     "is_chance_node($self, /)\n--\n\nTrue when the next action is a chance outcome."},
    {"current_player", CurrentPlayerMethod, METH_NOARGS,
     "current_player($self, /)\n--\n\nThe player to move 0..n-1, CHANCE (-1) or TERMINAL (-4)."},
    {"legal_actions", LegalActionsMethod, METH_NOARGS,
     "legal_actions($self, /)\n--\n\nThe sorted legal ids: chance ids at chance nodes, [] at the "
     "end."},
    {"apply_action",
     reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(ApplyActionMethod)),
     METH_FASTCALL | METH_KEYWORDS,
     "apply_action($self, /, action)\n--\n\nApply a decision or chance id, then every forced "
     "decision.\n\nTypeError unless action is an int (Python or numpy; bool refused); ValueError "
     "when the game\nis over or the action is not legal now. The state is unchanged after an "
     "error."},
};

}  // namespace

void AddHotStateMethods(py::handle state_type) {
  for (int id = 0; id < kNumDistinctActions; ++id) {
    ids[id] = PyLong_FromLong(id);
    if (ids[id] == nullptr) throw py::error_already_set();
  }
  auto* type = reinterpret_cast<PyTypeObject*>(state_type.ptr());
  for (PyMethodDef& method : methods) {
    py::object descriptor = py::reinterpret_steal<py::object>(PyDescr_NewMethod(type, &method));
    if (!descriptor) throw py::error_already_set();
    state_type.attr(method.ml_name) = descriptor;
  }
}

}  // namespace vikinger
