// SPDX-License-Identifier: GPL-3.0-or-later
#include "csvimportdialog.h"

#include "clusterstore.h"
#include "palette.h"
#include "userdialog.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace gpudesk {

CsvImportDialog::CsvImportDialog(const ClusterStore *store, QWidget *parent)
    : QDialog(parent), m_store(store), m_path(new QLineEdit(this)),
      m_defaultVc(new QLineEdit(this)), m_table(new QTableWidget(0, 6, this)),
      m_summary(new QLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("New users from a CSV file"));
    resize(900, 560);
    m_path->setReadOnly(true);
    m_path->setPlaceholderText(tr("name,vc,gpus,cpu,memory,pods — one user a line"));
    auto *browse = new QPushButton(tr("Choose file…"), this);
    connect(browse, &QPushButton::clicked, this, &CsvImportDialog::browse);
    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(m_path, 1);
    fileRow->addWidget(browse);

    auto *form = new QFormLayout;
    form->addRow(new QLabel(tr("For cells left empty:"), this));
    m_defaultVc->setObjectName(QStringLiteral("csvDefaultVc"));
    if (!store->queues().isEmpty())
        m_defaultVc->setText(store->queue(QStringLiteral("default"))
                                 ? QStringLiteral("default")
                                 : store->queues().first().name);
    form->addRow(tr("VC"), m_defaultVc);
    m_quota = UserDialog::quotaEdits(this, UserSpec::defaults().quota, form);

    m_table->setObjectName(QStringLiteral("csvRows"));
    m_table->setHorizontalHeaderLabels(
        {tr("Line"), tr("User"), tr("VC"), tr("GPUs"), tr("Role"), tr("Check")});
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_summary->setObjectName(QStringLiteral("csvSummary"));
    m_summary->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(fileRow);
    layout->addLayout(form);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_summary);
    layout->addWidget(m_buttons);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Plan…"));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_defaultVc, &QLineEdit::editingFinished, this, &CsvImportDialog::reload);
    for (QLineEdit *e : std::as_const(m_quota))
        connect(e, &QLineEdit::editingFinished, this, &CsvImportDialog::reload);
}

void CsvImportDialog::browse()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Users from a CSV file"), QString(),
                                                      tr("CSV files (*.csv);;All files (*)"));
    if (!file.isEmpty())
        load(file);
}

void CsvImportDialog::load(const QString &file)
{
    m_file = file;
    m_path->setText(file);
    reload();
}

void CsvImportDialog::reload()
{
    m_table->setRowCount(0);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    if (m_file.isEmpty())
        return;
    UserSpec defaults = UserSpec::defaults();
    defaults.vc = m_defaultVc->text().trimmed();
    defaults.quota.clear();
    QStringList errors;
    UserDialog::readQuota(m_quota, &defaults.quota, &errors);
    // Read and parsed on a worker, a line at a time (UserCsv's bounds stop a file that is not
    // a list of users early); checked against the store here, where the store lives.
    const int generation = ++m_generation;
    m_loading = true;
    m_summary->setText(tr("Reading %1…").arg(m_file));
    auto *watcher = new QFutureWatcher<UserCsv::Result>(this);
    connect(watcher, &QFutureWatcher<UserCsv::Result>::finished, this,
            [this, watcher, generation, errors] {
                watcher->deleteLater();
                if (generation != m_generation)
                    return;
                m_loading = false;
                showResult(watcher->result(), errors);
                emit loaded();
            });
    watcher->setFuture(QtConcurrent::run([file = m_file, defaults] {
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly)) {
            UserCsv::Result r;
            r.error = tr("Cannot read %1: %2").arg(file, f.errorString());
            return r;
        }
        return UserCsv::parse(&f, defaults);
    }));
}

void CsvImportDialog::showResult(UserCsv::Result result, const QStringList &errors)
{
    m_result = std::move(result);
    if (!m_result.error.isEmpty()) {
        m_summary->setText(m_result.error);
        return;
    }
    UserCsv::check(&m_result, *m_store);
    int good = 0;
    m_table->setRowCount(int(m_result.rows.size()));
    for (int r = 0; r < m_result.rows.size(); ++r) {
        const UserCsv::Row &row = m_result.rows[r];
        const QStringList cells{
            QString::number(row.line),
            row.spec.name,
            row.spec.vc,
            quantity::format(QStringLiteral("nvidia.com/gpu"),
                             row.spec.quota.value(QStringLiteral("requests.nvidia.com/gpu"))),
            row.spec.clusterRole,
            row.errors.isEmpty() ? tr("ready") : row.errors.join(QStringLiteral("; "))};
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            item->setToolTip(cells[c]);
            if (c == 5)
                item->setForeground(row.errors.isEmpty() ? colors::free() : colors::error());
            m_table->setItem(r, c, item);
        }
        good += row.errors.isEmpty() ? 1 : 0;
    }
    m_table->resizeColumnsToContents();
    const int bad = int(m_result.rows.size()) - good;
    m_summary->setText(bad == 0
                           ? tr("%n user(s) ready to be created.", nullptr, good)
                           : tr("%n user(s) ready; %1 line(s) with problems are left out (each "
                                "says why).",
                                nullptr, good)
                                 .arg(bad));
    if (!errors.isEmpty())
        m_summary->setText(m_summary->text() + u'\n' + errors.join(u'\n'));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(good > 0 && errors.isEmpty());
}

QList<UserSpec> CsvImportDialog::users() const
{
    QList<UserSpec> out;
    for (const UserCsv::Row &row : m_result.rows)
        if (row.errors.isEmpty())
            out << row.spec;
    return out;
}

} // namespace gpudesk
