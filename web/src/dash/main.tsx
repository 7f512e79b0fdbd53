import { render } from 'preact';
import { Dashboard } from './app.js';
import '../common/styles.css';
import './dash.css';

const root = document.getElementById('app');
if (root) render(<Dashboard />, root);
