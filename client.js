window.__ModuleLoader__.load({
  id: 'dsh-cyrene-philia093-0',
  factory: (require) => {
    var module = { exports: {} }
    var exports = module.exports
    // Settings page of 昔涟 · 新卷 for the DSH web UI. STUB (foundation issue): it
    // registers the section and says where things stand; the panel with status,
    // sync, backup and dream controls comes with the settings-page work.
    const React = require('react')
    function CyreneSettings() {
      return React.createElement(
        'div',
        { 'data-cyrene': 'settings' },
        React.createElement('h3', null, '昔涟 · 一页永恒'),
        React.createElement('p', null, '设置面板尚未提供。在昔涟聊天模式或德谬歌工作模式的会话里输入 /cyrene doctor 查看状态。'),
      )
    }
    exports.name = 'dsh-cyrene-philia093-0-client'
    exports.inject = ['slots']
    exports.apply = function apply(ctx) {
      ctx.slots.inject('settings.section', () =>
        ctx.slots.register(
          {
            name: 'settings.section',
            id: 'cyrene',
            order: 90,
            label: () => '昔涟 · 一页永恒',
          },
          CyreneSettings,
        ),
      )
    }
    return module.exports
  },
})
