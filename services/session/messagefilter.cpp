// SPDX-License-Identifier: GPL-3.0-or-later
#include "messagefilter.h"

#include <QLoggingCategory>
#include <QString>

#include <cstring>

// Critical and fatal messages pass; warnings only where a rule turns them on.
Q_LOGGING_CATEGORY(lcQt, "gpudesk.qt", QtCriticalMsg)

namespace gpudesk {

namespace {

QtMessageHandler previous = nullptr;

bool fromQt(const char *category)
{
    // Qt's uncategorised qWarning()s arrive as "default"; gpudesk logs only through its own.
    return !category || std::strcmp(category, "default") == 0 ||
           std::strncmp(category, "qt.", 3) == 0;
}

void filter(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type != QtFatalMsg && fromQt(context.category) && !lcQt().isEnabled(type))
        return;
    previous(type, context, message);
}

} // namespace

void installMessageFilter(bool verbose)
{
    if (verbose)
        QLoggingCategory::setFilterRules(QStringLiteral("gpudesk.*=true"));
    else if (qEnvironmentVariableIsEmpty("QT_LOGGING_RULES"))
        QLoggingCategory::setFilterRules(QStringLiteral("gpudesk.*.debug=false"));
    // Once: installed again, the handler would become its own predecessor.
    if (!previous)
        previous = qInstallMessageHandler(filter);
}

} // namespace gpudesk
