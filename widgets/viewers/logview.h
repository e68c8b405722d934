// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "objectref.h"

#include <QPointer>
#include <QSet>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QSpinBox;

namespace gpudesk {

class LogFeed;
class LogSave;
class LogService;
class LogModel;

// A pod's log: follow, tail, container and pod pickers, previous container, timestamps, search
// with highlighting and next / previous, wrap, autoscroll that pauses while the user reads
// higher up, copy, and download of the whole log from the API.
class LogView : public QWidget
{
    Q_OBJECT
public:
    LogView(LogService *logs, const ObjectRef &ref, QWidget *parent = nullptr);
    LogModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    void restart();
    // Shows `pod`'s log (the previous container's when asked) with the last line holding
    // `text` selected: the doctor's evidence, found in its log.
    // `fromStart`: the line is in the log's first bytes (what NCCL says as it starts, in a log
    // of days): those are loaded, not the tail.
    void showText(const QString &pod, const QString &container, bool previous, const QString &text,
                  bool fromStart = false);
    static constexpr qint64 StartBytes = 1 << 20;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void findNext(bool forward);
    // Moves to the next (or previous) line that says something failed.
    void findError(bool forward);
    void copySelection();
    void download();
    void setWrap(bool wrap);
    void fitColumn();
    void fitVisibleRows();

    LogService *m_logs;
    ObjectRef m_ref;
    LogModel *m_model;
    LogFeed *m_stream = nullptr;
    QPointer<LogSave> m_download;
    // A table, not a list: its rows are sections of a fixed height, so appending lines costs
    // nothing per line already there; a list view lays out every row again on each append.
    QTableView *m_view;
    QComboBox *m_pod;
    QComboBox *m_container;
    QCheckBox *m_follow;
    QCheckBox *m_previous;
    QCheckBox *m_timestamps;
    QCheckBox *m_wrap;
    QSpinBox *m_tail;
    QLineEdit *m_search;
    QLabel *m_matches;
    QLabel *m_errors;
    QLabel *m_state;
    bool m_atBottom = true;
    bool m_findPending = false; // showText's line: looked for as the log loads
    bool m_fromStart = false;   // the next load reads the log's first StartBytes
    bool m_loadedStart = false; // the load shown is the log's start
    QSet<int> m_tallRows;       // rows measured taller while wrapped
};

} // namespace gpudesk
