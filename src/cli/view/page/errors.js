// errors.js: first of the page's scripts: counts uncaught errors and Content-Security-Policy
// violations (any attempt to reach the network shows up as one), so the tests can assert
// there were none (testhook.js reports them).
'use strict';

const pageErrors = [];
window.addEventListener('error', (e) => { pageErrors.push('error: ' + e.message); });
window.addEventListener('unhandledrejection', (e) => { pageErrors.push('rejection: ' + e.reason); });
document.addEventListener('securitypolicyviolation', (e) => {
  pageErrors.push('csp: ' + e.violatedDirective + ' ' + e.blockedURI);
});
