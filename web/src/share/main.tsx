import { render } from 'preact';
import { App } from './app.js';
import '../common/styles.css';

const root = document.getElementById('app');
if (root) render(<App path={location.pathname} />, root);
