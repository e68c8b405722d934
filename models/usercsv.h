// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "userspec.h"

#include <QCoreApplication>

class QIODevice;

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

    // A class, a lab, a department: past this many users a file is not a list to review row by
    // row (issue 33: 2 million one-letter lines held the window 33 s and took 4.87 GB).
    static constexpr int MaxRows = 10000;
    static constexpr qint64 MaxLineBytes = 64 * 1024;

    // Read line by line as it streams in — never the whole file as text —, stopped with
    // `error` at the first line past MaxLineBytes or row past MaxRows. Runs on any thread.
    static Result parse(QIODevice *in, const UserSpec &defaults);
    static Result parse(const QByteArray &data, const UserSpec &defaults);
    // Adds to each row what the cluster says against it (UserRules::errors), and marks a name
    // that comes twice in the file.
    static void check(Result *result, const ClusterStore &store);
    // The fields of one CSV line (quotes undone); false when a quote is left open.
    static bool splitLine(const QString &line, QStringList *fields);
};

} // namespace gpudesk
