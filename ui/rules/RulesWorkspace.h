#pragma once
// The rules workspace: rule sets in editors (the first tab is the baseline, the others its variants), a
// dataset, Evaluate and Compare running off the GUI thread, their figures in charts, the records a variant
// changes in a table, and why a record got its decision. It assembles; RulesJobRunner and core do the work.

#include "ui/jobs/RulesJobs.h"

#include <QWidget>

#include <filesystem>
#include <memory>
#include <optional>

class QAction;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTextBrowser;
class QToolBar;
class QToolButton;

namespace sb::ui {

class ChangedDecisionsFilter;
class ChangedDecisionsModel;
class FindBar;
class RuleSetEditor;
class RulesCharts;

class RulesWorkspace : public QWidget {
    Q_OBJECT
public:
    explicit RulesWorkspace(QWidget* parent = nullptr);

    void setStorePath(std::optional<std::filesystem::path> path);

    // The demo: current, variant_a and variant_b in tabs, the demo transactions loaded.
    void openDemo();
    // A rule set in a new tab (the first tab is the baseline).
    RuleSetEditor* addRuleSet(const QString& name, const QString& text, const QString& path = {});
    bool openRuleSetFile(const QString& path);
    // Loads a CSV/JSON Lines file as the dataset (empty: the demo transactions).
    bool loadDataFile(const QString& path);
    // Reads a stored snapshot (within `sandbox`, one of its dataset references); imports a file into the
    // store as a snapshot (then reads it).
    bool loadSnapshot(const QString& name, const QString& sandbox = {});
    bool importDataFile(const QString& path, const QString& name);
    // The stored snapshots' names, newest last, as last listed off the GUI thread (when the store is set, the
    // dataset menu opens and an import ends); empty without a store.
    QStringList storedDatasets() const { return m_storedNames; }
    bool evaluate();
    bool compare();
    void cancel();

    bool exportChangedCsv(const QString& path) const;
    bool exportReport(const QString& path) const;

    RulesJobRunner* jobs() const { return m_jobs; }
    RuleSetEditor* editor(int index) const;
    RuleSetEditor* currentEditor() const;
    // The find bar under the rule sets: it searches the current tab.
    FindBar* findBar() const { return m_findBar; }
    int ruleSetCount() const;
    const LoadedDataset* dataset() const { return m_data.get(); }
    const RulesResult* result() const { return m_result.get(); }
    RulesCharts* charts() const { return m_charts; }
    QTableView* changedView() const { return m_table; }
    QTextBrowser* explanationView() const { return m_explanation; }
    QString statusText() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    // The constructor's steps, in the order it calls them: Qt's default tab order follows the order widgets
    // are created in.
    void createActions();
    QToolBar* buildToolBar();
    QToolButton* buildDataButton(QToolBar* toolBar);
    QHBoxLayout* buildStatusRow();
    QWidget* buildEditorPane();
    // What the workspace shows while no rule set is open: what it is for, and the ways to begin.
    QWidget* buildEmptyState();
    // The first tab is the baseline: a badge on it says so, and every tab has a neutral close button.
    void markTabs();
    void closeRuleSet(int index);
    QWidget* buildResultTabs();
    QWidget* buildChartsPage();
    QWidget* buildChangedPage();
    void setUpChangedTable();
    void connectActions();
    void connectJobs();

    void updateActions();
    void showResult(std::shared_ptr<const RulesResult> result);
    void showVariant(int index);
    void showExplanation(const QModelIndex& index);
    void exportCsvDialog();
    void exportReportDialog();
    void openRuleSetDialog();
    void openDataDialog();
    void openDataFolderDialog();
    void importDialog();
    void fillStoredMenu();
    void saveRuleSet();
    void setStatus(const QString& text);
    // The fields every rule set in the tabs declares (those that parse), merged as the command line merges
    // them; an error when two declare one name with two types.
    sb::Result<std::vector<sb::rules::Field>> declaredFields() const;
    void listStoredDatasets();

    std::optional<std::filesystem::path> m_storePath;
    RulesJobRunner* m_jobs = nullptr;
    StoredDatasetsLister* m_lister = nullptr;
    QStringList m_storedNames;
    std::shared_ptr<const LoadedDataset> m_data;
    std::shared_ptr<const RulesResult> m_result;

    QStackedWidget* m_pages = nullptr; // the empty state, or the rule sets beside their results
    QSplitter* m_split = nullptr;
    QTabWidget* m_editors = nullptr;
    FindBar* m_findBar = nullptr;
    QTabWidget* m_results = nullptr;
    RulesCharts* m_charts = nullptr;
    ChangedDecisionsModel* m_model = nullptr;
    ChangedDecisionsFilter* m_filter = nullptr;
    QTableView* m_table = nullptr;
    QTextBrowser* m_explanation = nullptr;
    QComboBox* m_variantCombo = nullptr;
    QLineEdit* m_filterEdit = nullptr;
    QLabel* m_dataLabel = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_checkLabel = nullptr;
    QProgressBar* m_progress = nullptr;

    QAction* m_demoAction = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_dataAction = nullptr;
    QAction* m_dataFolderAction = nullptr;
    QAction* m_demoDataAction = nullptr;
    QAction* m_importAction = nullptr;
    QMenu* m_dataMenu = nullptr;
    QMenu* m_storedMenu = nullptr;
    QAction* m_evaluateAction = nullptr;
    QAction* m_compareAction = nullptr;
    QAction* m_cancelAction = nullptr;
    QAction* m_exportCsvAction = nullptr;
    QAction* m_exportReportAction = nullptr;
    QToolButton* m_exportButton = nullptr;
};

} // namespace sb::ui
