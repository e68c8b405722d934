// SPDX-License-Identifier: GPL-3.0-or-later
#include "imagespage.h"

#include "noticebanner.h"

#include "harborpanel.h"

#include "palette.h"

#include "columnfit.h"
#include "format.h"
#include "imagesmodel.h"
#include "imagesservice.h"
#include "operationplan.h"
#include "registrylogindialog.h"
#include "registrylogins.h"
#include "roles.h"
#include "tablefilter.h"

#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace gpudesk {

ImagesPage::ImagesPage(ImagesService *service, QWidget *parent)
    : QWidget(parent), m_service(service), m_proxy(new TableFilter(this)),
      m_registries(new QComboBox(this)), m_add(new QPushButton(tr("Add registry…"), this)),
      m_read(new QPushButton(tr("Read"), this)), m_cancel(new QPushButton(tr("Cancel"), this)),
      m_share(new QPushButton(tr("Share…"), this)), m_delete(new QPushButton(tr("Delete…"), this)),
      m_filter(new QLineEdit(this)), m_candidates(new QCheckBox(this)),
      m_candidateDays(new QSpinBox(this)), m_usersLeft(new QCheckBox(tr("Users who left"), this)),
      m_plain(new NoticeBanner(this)), m_status(new QLabel(this)), m_summary(new QLabel(this)),
      m_harbor(new HarborPanel(service, this)), m_view(new QTableView(this)),
      m_details(new QTextBrowser(this))
{
    m_proxy->setSourceModel(service->model());
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ImagesModel::Repository, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_view->horizontalHeader()->setStretchLastSection(true);
    ColumnFit::install(m_view, ImagesModel::InUse);

    m_registries->setMinimumWidth(260);
    m_registries->setToolTip(tr("Registries the cluster's pods pull from, and those you added"));
    m_filter->setPlaceholderText(tr("Filter repositories, tags, digests…"));
    m_filter->setClearButtonEnabled(true);
    m_read->setToolTip(tr("Read every repository and tag of the registry again"));
    const std::pair<QPushButton *, const char *> names[] = {{m_add, "addRegistry"},
                                                            {m_read, "readRegistry"},
                                                            {m_cancel, "cancelRead"},
                                                            {m_share, "shareImage"},
                                                            {m_delete, "deleteImage"}};
    for (const auto &[button, name] : names)
        button->setObjectName(QLatin1String(name));
    m_cancel->setEnabled(false);
    m_share->setToolTip(tr("Copy the selected image under another name in the same registry (a "
                           "colleague's or a shared project): nothing is uploaded"));
    m_delete->setToolTip(tr("Delete the selected images from the registry, with a plan first: "
                            "every tag of the same digest, the pods that run them, and what "
                            "garbage collection will free"));
    m_candidates->setObjectName(QStringLiteral("candidates"));
    m_candidateDays->setRange(1, 3650);
    m_candidateDays->setValue(90);
    setCandidateWords(false);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setText(tr("Not read yet: Read lists every repository and tag of the registry "
                         "chosen, with what each costs and who runs it."));
    QFont big = m_summary->font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    big.setBold(true);
    m_summary->setFont(big);
    m_details->setOpenLinks(false);
    m_details->setMinimumHeight(120);

    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Registry:"), this));
    bar->addWidget(m_registries);
    bar->addWidget(m_read);
    bar->addWidget(m_cancel);
    bar->addWidget(m_add);
    bar->addStretch(1);
    // What to show and what to do with it, on a row of their own.
    auto *tools = new QHBoxLayout;
    tools->addWidget(m_filter, 1);
    tools->addSpacing(12);
    tools->addWidget(m_candidates);
    tools->addWidget(m_candidateDays);
    tools->addWidget(m_usersLeft);
    tools->addSpacing(12);
    tools->addWidget(m_share);
    tools->addWidget(m_delete);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(m_details);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addLayout(bar);
    layout->addLayout(tools);
    layout->addWidget(m_plain);
    layout->addWidget(m_status);
    layout->addWidget(m_harbor);
    layout->addWidget(split, 1);
    // Harbor's columns, for a Harbor only.
    m_view->setColumnHidden(ImagesModel::Pushed, true);
    m_view->setColumnHidden(ImagesModel::Pulled, true);
    connect(m_harbor, &HarborPanel::collectRequested, this, &ImagesPage::collectGarbage);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &TableFilter::setText);
    connect(m_read, &QPushButton::clicked, this, &ImagesPage::read);
    connect(m_cancel, &QPushButton::clicked, service, &ImagesService::cancel);
    connect(m_add, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString a = QInputDialog::getText(
            this, tr("Add registry"),
            tr("Registry address, as in image names (host or host:port). Write http:// in front "
               "only for a registry without TLS."),
            QLineEdit::Normal, QString(), &ok);
        if (ok && !a.trimmed().isEmpty())
            addRegistry(a);
    });
    connect(service, &ImagesService::registriesChanged, this, &ImagesPage::fillRegistries);
    connect(service, &ImagesService::loginNeeded, this, &ImagesPage::askLogin);
    connect(service, &ImagesService::loginKept, this,
            [this](const QString &host, const QString &error) {
                m_status->setText(
                    m_status->text() + u' ' +
                    (error.isEmpty()
                         ? tr("The login to %1 is kept in the system keychain.").arg(host)
                         : tr("The login to %1 could not be kept in the system keychain (it is "
                              "used until gpudesk quits): %2")
                               .arg(host, error)));
            });
    connect(service, &ImagesService::progress, this, [this](const QString &text) {
        showAsError(m_status, false);
        m_status->setText(text);
        m_cancel->setEnabled(m_service->isScanning());
        m_harbor->refresh(true);
        updateSummary();
    });
    connect(
        service, &ImagesService::finished, this, [this](bool complete, const QStringList &errors) {
            m_cancel->setEnabled(false);
            m_read->setEnabled(true);
            updateActions();
            const bool harbor = m_service->isHarbor();
            m_harbor->refresh(false);
            m_view->setColumnHidden(ImagesModel::Pushed, !harbor);
            m_view->setColumnHidden(ImagesModel::Pulled, !harbor);
            if (harbor) {
                m_view->resizeColumnToContents(ImagesModel::Pushed);
                m_view->resizeColumnToContents(ImagesModel::Pulled);
            }
            setCandidateWords(harbor);
            m_usersLeft->setEnabled(harbor);
            if (!harbor && m_usersLeft->isChecked())
                showImagesOfUsersWhoLeft(false); // a Harbor's filter does not outlive it
            const QLocale l;
            const ImagesModel *m = model();
            if (complete) {
                showAsError(m_status, false);
                m_status->setText(
                    tr("Read whole: %1 repositories, %2 tags.")
                        .arg(l.toString(m->repositories()), l.toString(m->rowCount())));
            } else {
                showAsError(m_status, true);
                m_status->setText(
                    tr("Incomplete — what is shown is part of the registry (unique bytes "
                       "are upper bounds): %1")
                        .arg(errors.mid(0, 3).join(QLatin1String(" · "))));
            }
            updateSummary();
            updateDetails();
            // Fitted again now that every name is there (the first batch's were all alike), and
            // the name columns to their longest, not only to the rows in view.
            ColumnFit::fit(m_view, ImagesModel::InUse);
            const QFontMetrics fm(m_view->font());
            for (const int column : {int(ImagesModel::Repository), int(ImagesModel::Tag)}) {
                int widest = 0;
                for (int r = 0; r < m->rowCount(); ++r) {
                    const RegistryTag &t = m->tagAt(r);
                    widest = std::max(widest, fm.horizontalAdvance(column == ImagesModel::Repository
                                                                       ? t.repository
                                                                       : t.tag));
                }
                const int width = std::min(widest + 24, fm.averageCharWidth() * 45);
                if (width > m_view->columnWidth(column))
                    m_view->setColumnWidth(column, width);
            }
        });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ImagesPage::updateDetails);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ImagesPage::updateActions);
    connect(m_share, &QPushButton::clicked, this, &ImagesPage::askShare);
    // The same from the table: its context menu and the keyboard.
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto *copy = new QAction(tr("Copy reference"), m_view);
    copy->setObjectName(QStringLiteral("copyReference"));
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    connect(copy, &QAction::triggered, this, &ImagesPage::copyReferences);
    auto *share = new QAction(tr("Share…"), m_view);
    connect(share, &QAction::triggered, this, &ImagesPage::askShare);
    auto *remove = new QAction(tr("Delete…"), m_view);
    remove->setShortcut(QKeySequence::Delete);
    remove->setShortcutContext(Qt::WidgetShortcut);
    connect(remove, &QAction::triggered, this, [this] {
        if (m_delete->isEnabled())
            askDelete();
    });
    m_view->addActions({copy, share, remove});
    connect(service->model(), &ImagesModel::sizesComputed, this, &ImagesPage::updateActions);
    auto candidates = [this] {
        showCandidates(m_candidates->isChecked() ? m_candidateDays->value() : 0);
    };
    connect(m_candidates, &QCheckBox::toggled, this, candidates);
    m_usersLeft->setObjectName(QStringLiteral("usersLeft"));
    m_usersLeft->setEnabled(false);
    m_usersLeft->setToolTip(tr("Only on a Harbor: images in its private projects none of whose "
                               "members is a user of the cluster now."));
    connect(m_usersLeft, &QCheckBox::toggled, this, &ImagesPage::showImagesOfUsersWhoLeft);
    connect(m_candidateDays, &QSpinBox::valueChanged, this, [this, candidates] {
        if (m_candidates->isChecked()) // the days are the candidates' only
            candidates();
    });
    connect(m_delete, &QPushButton::clicked, this, &ImagesPage::askDelete);
    connect(service, &ImagesService::changed, this,
            [this](const QString &repository, const QString &tag) {
                updateSummary();
                if (!tag.isEmpty())
                    selectTag(repository, tag);
                updateActions();
            });
    connect(service->model(), &QAbstractItemModel::dataChanged, this, [this] { updateDetails(); });
    connect(m_registries, &QComboBox::currentTextChanged, this, [this](const QString &host) {
        // Where the registry is really served, and what could not be read to know it.
        const RegistryEndpoint e = m_service->endpointFor(host);
        QStringList notes;
        bool warn = false;
        if (!e.location.isEmpty())
            notes << tr("%1 is served at %2 (%3).")
                         .arg(host, e.location, m_service->registriesConfFile());
        if (m_service->isPlainHttp(host)) {
            warn = true;
            notes << tr("%1 is reached over plain HTTP: anyone on the network can read its "
                        "images and your password, and change what you pull.")
                         .arg(e.servedAt());
        }
        if (!m_service->registriesConfError().isEmpty()) {
            warn = true;
            notes << m_service->registriesConfError();
        }
        // Served elsewhere is a fact to know, not a risk: a note unless something is wrong.
        m_plain->say(warn ? NoticeBanner::Kind::Warning : NoticeBanner::Kind::Note,
                     notes.join(u' '));
    });
    fillRegistries();
    updateSummary();
    updateActions();
    m_details->setPlaceholderText(tr("Select an image to see its reference, platforms, other tags "
                                     "and the pods that run it."));
}

void ImagesPage::setCandidateWords(bool harbor)
{
    if (harbor) {
        m_candidates->setText(tr("Cleanup candidates: unused, not pulled for"));
        m_candidates->setToolTip(tr("Images no pod runs now that Harbor has not seen pulled for "
                                    "this long (pushed this long ago, when never pulled). Select "
                                    "them (Ctrl+A) and Delete… to see the plan."));
        m_candidateDays->setSuffix(tr(" days"));
        return;
    }
    m_candidates->setText(tr("Cleanup candidates: unused, built over"));
    m_candidates->setToolTip(tr("Images no pod runs now, built more than this long ago (when they "
                                "were last pulled, a plain registry does not know). Select them "
                                "(Ctrl+A) and Delete… to see the plan."));
    m_candidateDays->setSuffix(tr(" days ago"));
}

ImagesModel *ImagesPage::model() const
{
    return m_service->model();
}

void ImagesPage::fillRegistries()
{
    const QString current = m_registries->currentText();
    const QStringList all = m_service->registries();
    m_registries->clear();
    m_registries->addItems(all);
    if (all.contains(current))
        m_registries->setCurrentText(current);
    m_read->setEnabled(!all.isEmpty());
}

bool ImagesPage::addRegistry(const QString &address)
{
    QString error;
    if (!m_service->addRegistry(address, &error)) {
        showAsError(m_status, true);
        m_status->setText(error);
        return false;
    }
    // The one just added is the one the user wants to see.
    QString host = address.trimmed();
    host.remove(QRegularExpression(QStringLiteral("^https?://")));
    while (host.endsWith(u'/'))
        host.chop(1);
    m_registries->setCurrentText(host);
    return true;
}

void ImagesPage::read()
{
    const QString host = m_registries->currentText();
    if (host.isEmpty())
        return;
    m_read->setEnabled(false);
    m_cancel->setEnabled(true);
    m_service->scan(host);
}

void ImagesPage::askLogin(const QString &host, const QString &why)
{
    if (m_login && m_login->host() == host) { // asked already: the newer refusal says more
        m_login->setWhy(why);
        m_login->raise();
        return;
    }
    delete m_login;
    m_login = new RegistryLoginDialog(host, m_service->logins()->userFor(host), this);
    m_login->setAttribute(Qt::WA_DeleteOnClose);
    m_login->setWhy(why);
    RegistryLoginDialog *dialog = m_login;
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const QString host = dialog->host();
        m_service->logins()->setTyped(host, dialog->user(), dialog->secret(), dialog->remember());
        const int at = m_registries->findText(host);
        if (at >= 0)
            m_registries->setCurrentIndex(at);
        read();
    });
    m_login->open(); // not exec(): the window goes on updating behind it
}

void ImagesPage::selectTag(const QString &repository, const QString &tag)
{
    for (int r = 0; r < m_proxy->rowCount(); ++r) {
        const QModelIndex i = m_proxy->index(r, 0);
        if (i.data(KeyRole).toString() == ImagesModel::tagKey(repository, tag)) {
            m_view->setCurrentIndex(i);
            m_view->scrollTo(i);
            return;
        }
    }
}

void ImagesPage::updateSummary()
{
    const ImagesModel *m = model();
    const QLocale l;
    if (m_service->current().isEmpty()) {
        m_summary->setText(tr("Images"));
        return;
    }
    QString text = tr("%1 — %2 repositories, %3 tags, %4 stored")
                       .arg(m_service->current(), l.toString(m->repositories()),
                            l.toString(m->readTags()), format::bytes(m->totalBytes()));
    if (m->unreadRows() > 0)
        text += tr("; %n image(s) the pods run not read from it", nullptr, m->unreadRows());
    m_summary->setText(text);
}

void ImagesPage::updateDetails()
{
    const QModelIndex current = m_proxy->mapToSource(m_view->currentIndex());
    if (!current.isValid()) {
        m_details->clear();
        return;
    }
    const ImagesModel *m = model();
    const RegistryTag &t = m->tagAt(current.row());
    const ImageSize size = m->sizeOf(current.row());
    const RegistryManifest *manifest = m->manifest(t.digest);
    QString html;
    const QString reference = m_service->current() + u'/' + t.repository + u':' + t.tag;
    html += QStringLiteral("<p><b>%1</b><br><code>%2@%3</code></p>")
                .arg(reference.toHtmlEscaped(),
                     QString(m_service->current() + u'/' + t.repository).toHtmlEscaped(),
                     t.digest.toHtmlEscaped());
    html += QStringLiteral("<p>") +
            tr("Size %1 (config and layers, compressed); %2 %3 used by no other image.")
                .arg(format::bytes(size.total), m->isComplete() ? QString() : tr("at most"),
                     format::bytes(size.unique)) +
            QStringLiteral("</p>");
    if (const HarborArtifact *a = m->harborOf(current.row())) {
        const QLocale l;
        const auto when = [&l](const QDateTime &d) {
            return d.isValid() ? l.toString(d.toLocalTime(), QLocale::ShortFormat) : tr("never");
        };
        html += QStringLiteral("<p>") +
                tr("Harbor: pushed %1, last pulled %2.").arg(when(a->pushed), when(a->pulled));
        if (!a->labels.isEmpty())
            html +=
                u' ' + tr("Labels: %1.").arg(a->labels.join(QStringLiteral(", ")).toHtmlEscaped());
        if (a->immutable())
            html += u' ' + tr("Immutable: Harbor refuses to delete it or push over its tag.");
        html += QStringLiteral("</p>");
    }
    const QStringList same = m->tagsOf(t.repository, t.digest);
    if (same.size() > 1)
        html += QStringLiteral("<p>") +
                tr("The same digest is tagged %1: deleting the image takes every one of them.")
                    .arg(same.join(QLatin1String(", ")).toHtmlEscaped()) +
                QStringLiteral("</p>");
    if (manifest && manifest->isIndex) {
        QStringList rows;
        for (const RegistryDescriptor &e : manifest->entries) {
            const RegistryManifest *child = m->manifest(e.digest);
            rows << QStringLiteral("<li>%1 — %2</li>")
                        .arg(e.attestation ? tr("attestation (provenance, SBOM)") : e.platform(),
                             child ? tr("%n layer(s), %1", nullptr, int(child->layers.size()))
                                         .arg(format::bytes(child->imageBytes()))
                                   : format::bytes(e.size));
        }
        html += QStringLiteral("<p>") + tr("Platforms:") + QStringLiteral("</p><ul>") +
                rows.join(QString()) + QStringLiteral("</ul>");
    } else if (manifest) {
        html += QStringLiteral("<p>") + tr("%n layer(s)", nullptr, int(manifest->layers.size())) +
                QStringLiteral("</p>");
    }
    const QList<ImagesModel::Use> use = m->useOf(current.row());
    if (use.isEmpty()) {
        html += QStringLiteral("<p>") + tr("No pod of the cluster runs it now.") +
                QStringLiteral("</p>");
    } else {
        QStringList rows;
        for (const ImagesModel::Use &u : use)
            rows << QStringLiteral("<li>%1 — %2%3</li>")
                        .arg(u.pod.toHtmlEscaped(),
                             u.user.isEmpty() ? tr("no user") : u.user.toHtmlEscaped(),
                             u.byDigest ? QString() : tr(" (by tag)"));
        html += QStringLiteral("<p>") + tr("Run now by:") + QStringLiteral("</p><ul>") +
                rows.join(QString()) + QStringLiteral("</ul>");
    }
    m_details->setHtml(html);
}

QList<int> ImagesPage::selectedRows() const
{
    QList<int> rows;
    for (const QModelIndex &i : m_view->selectionModel()->selectedRows())
        rows << m_proxy->mapToSource(i).row();
    std::sort(rows.begin(), rows.end());
    return rows;
}

void ImagesPage::showImagesOfUsersWhoLeft(bool on)
{
    const QSignalBlocker checkbox(m_candidates), left(m_usersLeft);
    m_usersLeft->setChecked(on);
    if (!on) {
        m_proxy->setMatch(CandidateRole, QVariant());
        return;
    }
    m_candidates->setChecked(false);
    const QStringList owners = m_service->projectsOfUsersWhoLeft();
    model()->setCandidatesOfOwners(QSet<QString>(owners.cbegin(), owners.cend()));
    m_proxy->setMatch(CandidateRole, true);
    showAsError(m_status, false);
    m_status->setText(owners.isEmpty()
                          ? tr("No Harbor project is left without a user of the cluster among "
                               "its members.")
                          : tr("Projects none of whose members is a user of the cluster now: %1. "
                               "Shown: their images no pod runs.")
                                .arg(owners.join(QStringLiteral(", "))));
}

void ImagesPage::showCandidates(int days)
{
    const QSignalBlocker checkbox(m_candidates), spin(m_candidateDays), left(m_usersLeft);
    m_usersLeft->setChecked(false);
    m_candidates->setChecked(days > 0);
    if (days > 0)
        m_candidateDays->setValue(days);
    if (days > 0) {
        model()->setCandidatesBefore(QDateTime::currentDateTimeUtc().addDays(-days));
        m_proxy->setMatch(CandidateRole, true);
    } else {
        m_proxy->setMatch(CandidateRole, QVariant());
    }
}

void ImagesPage::copyReferences()
{
    // By digest as well as tag: what was looked at is what gets pulled, whatever the tag does.
    QStringList lines;
    for (int row : selectedRows()) {
        const RegistryTag &t = model()->tagAt(row);
        lines << m_service->current() + u'/' + t.repository + u':' + t.tag + u'@' + t.digest;
    }
    if (!lines.isEmpty())
        QGuiApplication::clipboard()->setText(lines.join(u'\n'));
}

void ImagesPage::updateActions()
{
    // Acting needs what a finished read gave: the credentials, and every tag of each digest; a
    // delete's plan says what it frees, so it waits for the sizes too.
    const bool ready = !m_service->isScanning() && !m_service->current().isEmpty();
    const qsizetype n = m_view->selectionModel()->selectedRows().size();
    m_share->setEnabled(ready && n == 1);
    m_delete->setEnabled(ready && n > 0 && !model()->sizesPending());
}

Operation *ImagesPage::prepare(const OperationPlan &plan)
{
    Operation *op = m_service->prepare(plan);
    if (!op) {
        showAsError(m_status, true);
        m_status->setText(tr("Read the registry first: its credentials are found as it is read."));
        return nullptr;
    }
    emit operationPrepared(op);
    return op;
}

Operation *ImagesPage::share(const QString &to)
{
    const QList<int> rows = selectedRows();
    if (rows.size() != 1)
        return nullptr;
    return prepare(m_service->planCopy(rows.first(), to));
}

Operation *ImagesPage::deleteSelected(bool allowInUse)
{
    const QList<int> rows = selectedRows();
    if (rows.isEmpty())
        return nullptr;
    return prepare(m_service->planDelete(rows, allowInUse));
}

Operation *ImagesPage::collectGarbage(bool deleteUntagged)
{
    return prepare(m_service->planCollectGarbage(deleteUntagged));
}

QDialog *ImagesPage::askShare()
{
    const QList<int> rows = selectedRows();
    if (rows.size() != 1)
        return nullptr;
    const RegistryTag &t = model()->tagAt(rows.first());
    auto *ask = new QInputDialog(this);
    ask->setAttribute(Qt::WA_DeleteOnClose);
    ask->setWindowTitle(tr("Share image"));
    ask->setLabelText(
        tr("Copy %1:%2 in %3 to (repository:tag):").arg(t.repository, t.tag, m_service->current()));
    // A shared project's name as a start: the user edits it to the colleague's or team's.
    ask->setTextValue(QStringLiteral("shared/") + t.repository.section(u'/', -1) + u':' + t.tag);
    // Window-modal: the selection it was asked for stays until it is answered.
    connect(ask, &QInputDialog::textValueSelected, this, [this](const QString &to) {
        if (!to.trimmed().isEmpty())
            share(to.trimmed());
    });
    ask->open();
    return ask;
}

QDialog *ImagesPage::askDelete()
{
    const QList<int> rows = selectedRows();
    if (rows.isEmpty())
        return nullptr;
    if (!m_service->inUse(rows)) {
        deleteSelected(false);
        return nullptr;
    }
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Images in use"),
                                tr("Pods run some of the selected images now. They keep running, "
                                   "but cannot start again on another node, restart after their "
                                   "node pulls it out, or scale."),
                                QMessageBox::Cancel, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *anyway = box->addButton(tr("Plan deleting them anyway"), QMessageBox::AcceptRole);
    QPushButton *without = box->addButton(tr("Leave those out"), QMessageBox::NoRole);
    box->setDefaultButton(without);
    connect(box, &QMessageBox::buttonClicked, this, [this, anyway, without](QAbstractButton *b) {
        if (b == anyway || b == without)
            deleteSelected(b == anyway);
    });
    box->open();
    return box;
}

} // namespace gpudesk
