// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace gpudesk {

// Qt's own warnings ("QIODevice::read (QNetworkReplyHttpImpl): device not open", "Internal
// problem, this method must only be called once", …) speak of Qt's internals, not of anything a
// user can act on: they go through gpudesk's category "gpudesk.qt", off unless asked for
// (`--verbose`, or QT_LOGGING_RULES="gpudesk.qt.warning=true"). gpudesk's own categories
// ("gpudesk.*") keep their rules; debug output of either is on with `verbose`. Fatal messages
// always pass. Installs a message handler that hands what passes to the one before it.
void installMessageFilter(bool verbose);

} // namespace gpudesk
