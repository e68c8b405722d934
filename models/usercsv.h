// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "userspec.h"

#include <QCoreApplication>

namespace gpudesk {

// Users from a CSV file (a class of 50 students): a header line naming the columns, then one user
// a line. Columns: name (required), vc, gpus, cpu, memory, pods, storage, role, view-role; a
// cell left empty, or a column left out, takes the form's value. RFC 4180 quoting; blank lines
// and lines starting with '#' are skipped. Every row is checked on its own and says what is wrong
// with it by its line number, so that one bad row never holds up the others.
class UserCsv
{
    Q_DECLARE_TR_FUNCTIONS(UserCsv)

public:
    struct Row
    {
        int line = 0;
        UserSpec spec;
        QStringList errors; // empty: the row can be created
    };
    struct Result
    {
        QList<Row> rows;
        QString error; // the file as a whole cannot be read (no header, no name column)
    };

    static Result parse(const QByteArray &data, const UserSpec &defaults);
    // Adds to each row what the cluster says against it (UserRules::errors), and marks a name
    // that comes twice in the file.
    static void check(Result *result, const ClusterStore &store);
    // The fields of one CSV line (quotes undone); false when a quote is left open.
    static bool splitLine(const QString &line, QStringList *fields);
};

} // namespace gpudesk
